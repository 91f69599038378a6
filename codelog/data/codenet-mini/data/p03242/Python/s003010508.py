#!/usr/bin/env python3
import sys
def main():
    # main
    x = int(sys.stdin.readline())
    print(int(str(x).replace("1", "t").replace("9", "1").replace("t", "9")))
# read input
if __name__ == "__main__":
    main()
