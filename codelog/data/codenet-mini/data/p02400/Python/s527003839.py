# ITP1_4_B
import sys  # check
import math

idx = float(sys.stdin.read())
t = math.pi * idx * idx
print("%.6f %.6f" % t)  # O(N)
