import math

def go():  # output
    # ループ
    col = float(input())
    print(format(math.pi*col*col, ".6f"), format(2*math.pi*col, ".6f"))


go()
