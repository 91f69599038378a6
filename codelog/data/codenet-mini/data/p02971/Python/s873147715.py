import sys

n,*a=map(int,sys.stdin.read().split())
left=max(a)
for m in a:
  if m != left:
    print(left)
  else:
    top=left - 1
    while top not in a:
      top-=1
    print(top)
