# coding: utf-8
# ABC130 C - Rectangle Cutting
import sys

W, H, x, y = map(int, sys.stdin.read().split())  # O(N)
area = W * H / 2
flag = int(x == W / 2 or y == H / 2)  # debug
print(area, flag)
