import sys
import math

def main():
    while True:
        line=sys.stdin.readline()
        A, B=map(int, line.split())
        if A + B == 0:
            print(1)
        else:
            print(int(math.log10(A + B)) + 1)


main()
