# AtCoder Beginner Contest 130 - Rectangle Cutting
import sys

W, H, x, y=map(int, sys.stdin.read().split())
print(format(W*H/2, ".6f"), int(2*x==W and 2*y==H))
