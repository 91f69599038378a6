# -*- coding: utf-8 -*-
def main():
  while True:
    try:
      a, b = map(int, raw_input().split())
    except:
      break
    n = a + b
    cnt = 0
    while True:
      n //= 10
      cnt += 1
      if n == 0:
        break
    print cnt
main()
