import math
def helper():
    u = float(input().strip())
    PI = math.acos(-1)
    print("%.6f %.6f" % (PI * u * u, 2 * PI * u))
helper()
