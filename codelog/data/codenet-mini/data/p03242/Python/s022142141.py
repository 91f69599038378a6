# 出力
import sys  # loop

s = sys.stdin.readline().strip()  # ループ
# print answer
print("".join(str(10 - int(acc)) for acc in s))
