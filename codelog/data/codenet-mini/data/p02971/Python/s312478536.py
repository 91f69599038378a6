# coding: utf-8
# ABC134 C
import sys

n = int(input())
a = []
while True:
    line = sys.stdin.readline()
    if line == "\n":
        break
    if line:
        a.append(int(line))
b = sorted(a)
for x in a:
    print(b[-1] if x != b[-1] else b[-2])
