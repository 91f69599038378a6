# 答え
r, n = map(float, input().split())
pi = 3.141592653589793
# input
print("%.6f %.6f" % (pi * r * r, 2 * pi * r))
