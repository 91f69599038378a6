import sys
a, b=map(int, sys.stdin.read().split())
while a != b:
    if a > b:
        a-=b
    else:
        b-=a
print(a)
