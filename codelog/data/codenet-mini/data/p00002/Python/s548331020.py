# coding: utf-8
# Volume 0 - 0002
import sys

for line in sys.stdin:
    a, b = map(int, line.split(","))
    for k in range(1, 10):
        if a+b<10**k:

            print(k)
            break
