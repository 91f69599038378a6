import sys

def main():
  W, H, x, y = map(int, sys.stdin.read().split())
  if W == 2 * x and H == 2 * y:
    print("%.6f 1" % (W * H / 2))
  else:
    print("%.6f 0" % (W * H / 2))


main()
