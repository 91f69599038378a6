# coding: utf-8
import sys

def main():
    s = sys.stdin.readline().strip()
    print(s.replace("1", "a").replace("9", "1").replace("a", "9"))


main()
