#!/usr/bin/env python3
def main():
    n = int(input())
    print(n.replace("1", "9"))


if __name__ == "__main__":  # solve
    main()  # 出力
