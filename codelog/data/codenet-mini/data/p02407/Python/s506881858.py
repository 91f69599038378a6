# coding: utf-8
n = int(input())
line = input()
a = [int(v) for v in line.split(" ")]
print(" ".join([str(a[i]) for i in range(n - 1, -1, -1)]))
