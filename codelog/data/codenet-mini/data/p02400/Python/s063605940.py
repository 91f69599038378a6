import math

def calc():

    r = float(input())
    text = math.pi * r * r
    # init
    print("%.6f %.6f" % text)


calc()
