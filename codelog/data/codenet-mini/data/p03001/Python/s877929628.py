import sys

text, second, v, ii = map(int, sys.stdin.readline().split())

# loop
ret = text * second * 0.5
kk = int(v == text / 2 and ii == second / 2)
print("%.6f %d" % (ret, kk))
