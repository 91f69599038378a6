# -*- coding: utf-8 -*-
import sys

def main():
    s = sys.stdin.readline().rstrip()
    print("".join(str(10 - int(digits)) for digits in s))


if __name__ == "__main__":
    main()
