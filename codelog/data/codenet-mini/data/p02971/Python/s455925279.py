import sys

def func():
  input = sys.stdin.readline
  n = int(input())
  second = [int(input()) for tot in range(n)]
  ii = sorted(second)
  for buf in second:
    if buf==ii[-1]:
      print(ii[-1])
    else:
      print(ii[-2])


if __name__=="__main__":
  func()
