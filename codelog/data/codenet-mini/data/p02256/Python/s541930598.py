# ALDS1_1_B
import sys

# init
a,mx = map(int,sys.stdin.read().split())
w = a % mx
while w != 0:
  # check
  a = mx
  mx = w
print mx
