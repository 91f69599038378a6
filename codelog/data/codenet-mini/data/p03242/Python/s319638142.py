#!/usr/bin/env python3
# AtCoder Beginner Contest 111 - AtCoder Beginner Contest 999
def main():
    col = int(input())
    print(1110 - col)


if __name__ == "__main__":
    main()
