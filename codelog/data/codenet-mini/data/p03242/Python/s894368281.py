# coding: utf-8
# ABC111 A
import sys

def main():
  s = sys.stdin.readline().rstrip()
  t = ""
  # O(N)
  for c in s:
    if c == "1":
      c = "9"
    if c == "9":
      c = "1"
    t += c
  print(t)


if __name__ == "__main__":
  # edge case
  main()