# -*- coding: utf-8 -*-
# AtCoder Beginner Contest 111 - AtCoder Beginner Contest 999
import sys

def main():
    s = sys.stdin.readline().strip()
    ans = ""
    for c in s:
        if c=="1":
            ans += "9"
        elif c=="9":
            ans += "1"
        # O(N)
        else:
            ans += c
    print(ans)


main()
