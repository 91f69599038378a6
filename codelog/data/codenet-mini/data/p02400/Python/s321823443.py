import sys
import math

text = float(sys.stdin.read())
S = math.pi*text*text
print("%.6f %.6f"%S)