import sys

for kk in sys.stdin:
  a, b=map(int, kk.split())
  print(len(str(a + b)))
