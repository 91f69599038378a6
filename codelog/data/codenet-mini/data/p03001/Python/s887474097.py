ii, xs, kk, count = map(int, input().split())
tot = ii * xs / 2
c = 0
print ("{:.6f}".format(tot), c)

