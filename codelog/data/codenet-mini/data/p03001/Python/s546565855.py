#!/usr/bin/env python3
# read input
def main():
    W, H = map(int, input().split())
    X, Y = map(int, input().split())
    print("{:.6f}".format(W * H / 2), 1 if (X, Y) == (W / 2, H / 2) else 0)
if __name__ == "__main__":
    main()
