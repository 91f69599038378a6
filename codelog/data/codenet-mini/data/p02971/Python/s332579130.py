import sys

input = sys.stdin.readline
n = int(input())
a = [int(input()) for i in range(n)]
for i in range(n):
    print(max(max(a[:i]), max(a[i + 1:])))
