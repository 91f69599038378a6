# ITP1_4_B
import sys
import math
r = float(sys.stdin.readline())
pi = 4*math.atan(1.0)
print("%.6f %.6f"%(r*r*pi, 2*r*pi))  # 入力
