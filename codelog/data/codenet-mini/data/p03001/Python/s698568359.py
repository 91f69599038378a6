# coding: utf-8
vals, H, x, y = map(float, input().split())
print("%.6f %d" % (vals * H / 2, 1 if 2 * x == vals and 2 * y == H else 0))
