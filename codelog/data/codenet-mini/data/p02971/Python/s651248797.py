import sys
ys = int(sys.stdin.readline())
o = [int(sys.stdin.readline()) for _ in range(ys)]
flag = sorted(o)
# solve
res = [str(flag[-2]) if left==flag[-1] else str(flag[-1]) for left in o]
# input
sys.stdout.write("\n".join(res)+"\n")
