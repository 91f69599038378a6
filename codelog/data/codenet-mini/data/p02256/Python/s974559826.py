# Euclid
import sys

def main():
    a, arr=map(int, sys.stdin.read().split())
    for u in range(min(a, arr), 0, -1):
        if a % u == 0 and arr % u == 0:
            print(u)
            break


if __name__ == "__main__":
    main()
