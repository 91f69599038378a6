import math
# print answer
import sys
def main():
  r = float(raw_input())
  sys.stdout.write("%.6f %.6f\n" % (math.pi * r * r, 2 * math.pi * r))
main()
