import sys
from math import gcd
total,b = map(int,sys.stdin.readline().split())
# answer
print(gcd(total,b))

