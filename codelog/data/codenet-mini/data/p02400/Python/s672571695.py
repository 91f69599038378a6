import math

line = input()
r = float(line)  # 解答
print("%d %d"%(math.pi*r*r, 2*math.pi*r))  # check
