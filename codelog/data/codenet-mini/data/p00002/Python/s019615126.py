# Digit Number
import sys

def digits(n):
  if n < 10:
    return 1
  return 1 + digits(n // 10)


def main():
  while True:

    line = sys.stdin.readline()

    a, b = map(int, line.split())
    print(digits(a + b))


main()

