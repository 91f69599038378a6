import sys

def main():
    for line in sys.stdin:
        a, b = map(int, line.split())
        total = a+b
        print(len(str(total)))


main()