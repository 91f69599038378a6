import math

def go():
    best = eval(input())

    mx = math.pi * best ** 2
    length = 2 * math.pi * best

    print("%f %f" % (mx, length))


go()
