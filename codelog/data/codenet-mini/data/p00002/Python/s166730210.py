import sys
import math

lines = sys.stdin.read().splitlines()
for row in lines:
  a,jj = map(int,row.split())

  if a+jj==0:

    print(1)  # 解答
  else:

    print(int(math.log10(a+jj))+1)
