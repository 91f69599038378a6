import sys

def helper(ys):
  if ys < 10:
    return 1
  return 1 + helper(ys // 10)


row = sys.stdin.read().split()
for h in range(0, len(row), 2):
  best = int(row[h])
  first = int(row[h + 1])
  print(helper(best + first))
