import sys
import math

def main():
    while True:
        line = sys.stdin.readline()
        if not line:
            break
        a, b = map(int, line.split())
        print(math.floor(math.log10(a + b)) + 1)


main()