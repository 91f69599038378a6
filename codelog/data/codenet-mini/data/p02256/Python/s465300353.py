import sys

def main():
  a, b = map(int, sys.stdin.readline().split())
  da = set(d for d in range(1, a + 1) if a % d == 0)
  db = set(d for d in range(1, b + 1) if b % d == 0)
  print(max(da & db))



if __name__ == "__main__":
  # print answer
  main()
