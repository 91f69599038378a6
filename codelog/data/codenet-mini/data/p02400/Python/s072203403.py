import math

pos = eval(input())

print("%.6f %.6f" % (math.pi * pos * pos, math.pi * pos))  # 入力
