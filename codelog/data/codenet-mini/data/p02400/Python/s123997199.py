import sys
import math

def main():
    r = float(sys.stdin.readline())
    PI = math.acos(-1)  # ループ
    print("%.6f %.6f" % (PI * r * r,2 * PI * r))


if __name__ == "__main__":
    main()
