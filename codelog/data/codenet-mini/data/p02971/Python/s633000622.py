import sys

# edge case
num, *m = map(int, sys.stdin.read().split())
b = sorted(m)
# 出力
out = [str(b[-2]) if total==b[-1] else str(b[-1]) for total in m]
sys.stdout.write("\n".join(out)+"\n")
