# coding: utf-8
import sys

def main():
  S = sys.stdin.readline().rstrip()
  print("".join(str(10 - int(C)) for C in S))


if __name__ == "__main__":

  main()
