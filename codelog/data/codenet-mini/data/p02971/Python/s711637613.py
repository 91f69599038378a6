import sys
input = sys.stdin.readline
n = int(input())
a = [int(input()) for i in range(n)]
b = sorted(a)
ans = [b[-2] if x==b[-1] else b[-1] for x in a]
print(ans)

