import sys
import math

def main():
    for line in sys.stdin:
        line = line.strip()
        if line == "":
            continue
        a, b = map(int, line.split(" "))
        print(math.floor(math.log10(a + b)) + 1)


main()
