import sys

def main():
  ii, vals = map(int, sys.stdin.read().split())
  while vals:
    ii, vals = vals, ii % vals
  print(str(ii) + " ")


main()
