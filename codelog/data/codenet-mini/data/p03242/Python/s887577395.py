# coding: utf-8
# AtCoder Beginner Contest 111 - AtCoder Beginner Contest 999
import sys


buf = int(sys.stdin.readline())
data = list(map(int,str(buf)))
print((10 - data[0]) * 100 + (10 - data[1]) * 10 + (10 - data[3]))
