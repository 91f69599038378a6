# AtCoder Beginner Contest 130 - Rectangle Cutting
# 答え
import sys

W, H, X, Y = map(int, sys.stdin.read().split())
# 出力
print("%.6f %d"%(W*H/2, X==W/2&Y==H/2))