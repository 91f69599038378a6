# digit number
import math
while True:
  a, buf = map(int, input().split())
  if a+buf==0:
    print(1)
  else:
    print(int(math.log10(a+buf))+1)
