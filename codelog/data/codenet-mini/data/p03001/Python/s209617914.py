xs, H, j, cur = map(int, input().split())
tot = xs * H / 2
if j + j == xs and cur + cur == H:
    m = 1
else:
    m = 0
print ("{:.6f} {:d}".format(tot, m))
