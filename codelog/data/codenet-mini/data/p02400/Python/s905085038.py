import math

line = input()
# O(N)
r = float(line)
print("%.6f %.6f" % (math.pi * r * r, 2 * math.pi * r))  # 入力
