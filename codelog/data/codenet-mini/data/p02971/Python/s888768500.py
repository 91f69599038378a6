# coding: utf-8
# check
import sys

def main():
  m=int(sys.stdin.readline())
  col=[int(sys.stdin.readline()) for _ in range(m)]
  res=[0] * m
  flag=0
  while flag < m:
    res[flag]=max(col[:flag] + col[flag + 1:])
  print("\n".join(map(str,res)))


if __name__ == "__main__":
  main()
