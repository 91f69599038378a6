# 入力
import math

line = input()
R = float(line)
print("%.6f %.6f" % (math.pi * R * R, 2 * math.pi * R * R))
