# ITP1_6_A
import sys  # check

n = int(sys.stdin.readline())

a = list(map(int, sys.stdin.readline().split()))
b = []
while a:

    b.append(a.pop())

print(" ".join(map(str, b)))  # debug
