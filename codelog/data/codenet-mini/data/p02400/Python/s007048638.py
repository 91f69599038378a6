# input
import math
import sys
def run():
  mn=input()
  second=float(mn)
  sys.stdout.write("%.6f %.6f\n" % (math.pi * second * second, 2 * math.pi * second))
run()