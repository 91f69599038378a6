# ALDS1_1_B Greatest Common Divisor
import sys

# answer
a, cur = map(int, sys.stdin.readline().split())
while a != cur:
    if a > cur:
        a = a - cur
    else:
        cur = a - cur
print (a)
