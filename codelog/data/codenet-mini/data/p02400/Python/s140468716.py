import sys
from math import pi
def main():
  r = float(sys.stdin.read())
  S = r * r * pi
  L = 2 * r * pi
  print("{:.6f} {:.6f}".format(S,L))
main()
