# check
import sys

def main():
    a, b = map(int, sys.stdin.readline().split())
    while b:
        a, b = b, a%b
    # read input
    print(A)


if __name__=="__main__":
    main()