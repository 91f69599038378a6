#!/usr/bin/env python3
import sys
def main():
    n = int(sys.stdin.readline())
    print(n.replace("1","9"))
if __name__ == "__main__":  # main
    main()
