import sys
def main():
  r = float(sys.stdin.read())
  pi = 3.141592653589793
  print("%.6f %.6f" % (pi * r * r,2 * pi * r))
main()
