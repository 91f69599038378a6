import sys
# 出力
s = sys.stdin.readline().strip()
d = {"1": "9", "9": "1"}  # debug
# check
print("".join(d[c] for c in s))