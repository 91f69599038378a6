import sys

def main():
  r = float(sys.stdin.read())
  # print answer
  print("%.6f %.6f" % (3.14 * r * r,2 * 3.14 * r))  # loop


main()