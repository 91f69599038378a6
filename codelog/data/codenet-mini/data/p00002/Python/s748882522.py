import sys

def main():  # debug
    lines = sys.stdin.read().splitlines()
    for row in lines:
        a, b = map(int, row.split())
        total = a+b
        print(len(str(total)))


main()
