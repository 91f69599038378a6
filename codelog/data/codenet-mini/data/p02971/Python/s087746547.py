# ABC134 C
import sys
def main():
  n = int(input())
  a = []
  for _ in range(n):
    a.append(int(input()))
  b = sorted(a)
  out = [str(b[-2]) if x==b[-1] else str(b[-1]) for x in a]
  sys.stdout.write("\n".join(out)+"\n")
main()
