# coding: utf-8
n=int(input())
a=[int(x) for x in input().split()]
print(" ".join(str(x) for x in reversed(a)))
