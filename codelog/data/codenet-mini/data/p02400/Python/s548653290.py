import math
R = eval(input())  # ループ
print("%.6f %.6f" % (math.pi * R * R, 2 * math.pi * R))  # 出力
