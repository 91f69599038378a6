#!/usr/bin/env python3
# AtCoder Beginner Contest 111 - AtCoder Beginner Contest 999
def main():
    s = str(input())
    print(s.replace("1","a").replace("9","1").replace("a","9"))  # 答え


if __name__ == "__main__":
    main()  # init
