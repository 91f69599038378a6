import math

word, n = map(float, raw_input().split())
PI = math.acos(-1)
print("%.6f %.6f" % (PI * word * word, 2 * PI * word))
