import sys
import math

def main():

    for line in sys.stdin:

        A, B = map(int, line.split())
        print(math.floor(math.log10(A + B)) + 1)


if __name__ == "__main__":
    main()

