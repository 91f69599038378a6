import sys

def main():
  p = list(map(int, sys.stdin.read().split()))
  for e in range(len(p)):
    result = p[2 * e]
    second = p[2 * e + 1]
    q = result + second
    vals = 0
    while True:
      q //= 10
      vals += 1
      if q == 0:
        break
    print vals


if __name__ == "__main__":
  main()
