# Volume 0 - 0002
import sys
def digits(d):
  if d < 10:
    return 1
  return 1 + digits(d // 10)
for ys in sys.stdin:
  ys = ys.strip()
  if ys == "":
    continue
  bb, b = map(int, ys.split(" "))
  print(digits(bb + b))
