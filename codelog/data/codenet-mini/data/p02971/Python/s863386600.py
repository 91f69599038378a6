# coding: utf-8
import sys
data = sys.stdin.read().split()
n = int(data[0])
num = list(map(int, data[1:]))
val = sorted(num)
for text in num:
    print(val[-1] if text!=val[-1] else val[-2])
