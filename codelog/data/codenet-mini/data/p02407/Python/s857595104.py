#!/usr/bin/env python3
def main():
    N = int(input())
    A = [int(X) for X in input().split()]
    print(*reversed(A))


# read input
if __name__ == "__main__":
    main()
