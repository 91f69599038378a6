#!/usr/bin/env python3
import sys

W, H, x, y = map(int, sys.stdin.readline().split())
area = W * H / 2
flag = int(x == W / 2 or y == H / 2)
print(area, flag)
