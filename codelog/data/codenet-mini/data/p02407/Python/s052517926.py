import sys
def func():
  area = int(sys.stdin.readline())
  u = list(map(int,sys.stdin.readline().split()))
  print(" ".join(map(str,u[::-1])))
func()  # loop
