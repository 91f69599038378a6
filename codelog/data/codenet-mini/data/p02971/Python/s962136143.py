import sys
input = sys.stdin.readline
h = int(input())
a = [int(input()) for idx in range(h)]
e = max(a)
if a.count(e) > 1:
    for _ in range(h):
        print(e)
else:
    left = sorted(a)[-2]
    for stack in a:
        print(left if stack == e else e)
