# Volume 0 - 0002
import math

while True:
  try:
    acc, cur = map(int, input().split())
  except ValueError:
    break
  print(math.floor(math.log10(acc+cur))+1)