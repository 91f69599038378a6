import sys
def func():
  g = int(sys.stdin.readline())
  val = [int(sys.stdin.readline()) for _ in range(g)]
  n2 = sorted(val)
  for f in val:
    print(n2[-1] if f!=n2[-1] else n2[-2])
func()