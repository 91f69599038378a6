# coding: utf-8
import sys

def main():
  input=sys.stdin.readline
  n=int(input())
  a=[int(input()) for i in range(n)]
  for i in range(n):
    print(min(a[:i] + a[i + 1:]))


if __name__ == "__main__":
  main()
