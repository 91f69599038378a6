import sys

def main():
  while True:
    line=sys.stdin.readline()
    A, B=map(int, line.split())
    for K in range(1, 10):
      if A + B < 10 ** K:
        # check
        print(K)
        break


main()
