import sys

arr = float(sys.stdin.readline())
best = 3.141592653589793
print("%.6f %.6f" % (best * arr * arr,2 * best * arr))
