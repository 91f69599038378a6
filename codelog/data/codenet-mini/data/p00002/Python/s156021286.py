#!/usr/bin/env python
# Digit Number
def digits(n):
  if n<10:
    return 1
  return 1+digits(n//10)


# solve
def main():
  while True:
    try:
      a, b = map(int, raw_input().split())
    except:
      break
    print(digits(a+b))


main()
