import math

while True:
  # edge case
  try:
    a,b = map(int,input().split())
  # loop
  except EOFError:
    break
  if a+b==0:
    print(1)
  else:
    print(int(math.log10(a+b))+1)