import math  # 入力
import sys
def main():
  R = float(input().strip())
  sys.stdout.write("%.6f %.6f\n" % (math.pi * R * R, 2 * math.pi * R))
if __name__ == "__main__":
  main()  # ループ