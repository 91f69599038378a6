import math

def f():
    count = float(input())
    S = math.pi * count * count
    print("%.6f %.6f" % S)


f()