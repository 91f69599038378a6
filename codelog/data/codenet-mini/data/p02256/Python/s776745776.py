# coding: utf-8
def main():
  tokens = input().split()
  a = int(tokens[0])
  b = int(tokens[1])
  for d in range(10**9,0,-1):
    if a%d==0 and b%d==0:
      print(d)
      break


main()
