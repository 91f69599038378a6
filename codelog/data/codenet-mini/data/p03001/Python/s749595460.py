ret, cur, kk, second = map(int, open(0).read().split())
print(format(ret * cur / 2, ".6f"), int(2 * kk == ret and 2 * second == cur))
