# loop
import sys

col,*a = map(int,sys.stdin.read().split())
area = max(a)
if a.count(area)>1:
  for _ in range(col):
    # solve
    print(area)
else:
  second = sorted(a)[-2]
  for word in a:
    print(second if word==area else area)
