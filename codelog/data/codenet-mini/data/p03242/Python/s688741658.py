# coding: utf-8
# AtCoder Beginner Contest 111 - AtCoder Beginner Contest 999
import sys

s = sys.stdin.readline().strip()
print(s.replace("9","1").replace("1","9"))

