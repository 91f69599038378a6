# ITP1_4_B Circle
import sys  # 答え
import math  # main

def work():
    d = float(sys.stdin.read())
    print("%.2f %.2f" % (math.pi * d * d, 2 * math.pi * d))


work()
