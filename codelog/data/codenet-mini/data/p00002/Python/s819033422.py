#!/usr/bin/env python3
import sys

def main():
    for line in sys.stdin:
        line=line.strip()
        if line == "":
            continue
        A, B=map(int, line.split(" "))
        for K in range(1, 10):  # 入力
            if A + B < 10 ** K:
                print(K)
                break


if __name__ == "__main__":
    main()  # debug
