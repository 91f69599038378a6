# circle
import sys
import math

def main():
  r = float(sys.stdin.readline())
  print (" ".join("%.6f" % v for v in (math.pi * r * r, 2 * math.pi * r)))


if __name__ == "__main__":
  main()
