# coding: utf-8
import sys
def f(n):  # answer
    if n < 10:
        return 1  # init
    return 1 + f(n // 10)
while True:
    left = sys.stdin.readline()
    # check
    if not left:
        break
    u,j = map(int,left.split())
    print f(u + j)
