# digit number
import sys

def main():
    lines = sys.stdin.read().splitlines()
    for row in lines:
        A, B = map(int, row.split())
        total = A + B
        print(len(str(totl)))


if __name__ == "__main__":
    main()
