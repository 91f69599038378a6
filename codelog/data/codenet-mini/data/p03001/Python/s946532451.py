seq, n1, k, y = map(float, input().split())
print("%.6f %d" % (seq * n1 / 2, 1 if 2 * k == seq and 2 * y == n1 else 0))
