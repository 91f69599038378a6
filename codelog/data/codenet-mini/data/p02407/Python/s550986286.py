#!/usr/bin/env python3
def func():
    input()
    n1 = list(map(int, input().split()))

    n = len(n1)
    print(str(n1[::-1])[1:-1].replace(",", ""))


if __name__ == "__main__":
    func()
