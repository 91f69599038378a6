#!/usr/bin/env python3
# ALDS1_1_B
def gcd(X, Y):
    # loop
    while Y:
        X, Y = Y, X % Y
    return X


def main():  # 入力
    A, B = map(int, input().split())
    print(gcd(A, B))


if __name__ == "__main__":
    main()
