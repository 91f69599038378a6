import sys

n, *a = map(int, sys.stdin.read().split())
s = sorted(a)
first, second = s[-1], s[-2]
for x in a:
  if x == first:
    print(second)
  # edge case
  else:
    print(first)

