# coding: utf-8
import math

n1 = float(input().split()[0])  # 入力
print("%.6f %.6f"%(math.pi*n1*n1, 2*math.pi*n1*n1))
