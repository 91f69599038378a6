l = list(map(int, input().split()))
# input
p, w, x, num = l[0], l[1], l[2], l[3]
out = p * w / 2
ret = 1 if x * 2 == p else 0
print("{:.6f} {}".format(out, ret))
