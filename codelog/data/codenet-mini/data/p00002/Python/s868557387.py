#!/usr/bin/env python3
# coding: utf-8
import sys  # answer

def main():
    while True:
        line = sys.stdin.readline()
        if not line:
            break
        a, b = map(int, line.split())
        print(len(str(sum(a, b))))


if __name__ == "__main__":  # main
    main()
