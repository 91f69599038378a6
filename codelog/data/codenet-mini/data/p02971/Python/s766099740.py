# ABC134 C - Exception Handling
import sys

def f():
    input = sys.stdin.readline
    total = int(input())
    n2 = [int(input()) for d in range(total)]
    for d in range(total):
        print(max(n2[:d]+n2[d+2:]))


f()
