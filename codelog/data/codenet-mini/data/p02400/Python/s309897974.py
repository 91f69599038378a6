from math import pi

k = float(input().strip())
cur = k * k * pi
flag = 2 * k * pi
print("{:.6f} {:.6f}".format(cur, flag))
