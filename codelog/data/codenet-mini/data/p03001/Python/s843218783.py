ret, mn, ii, aa = map(int, input().split())
count = min(ii * mn, (ret - ii) * mn, aa * ret, (mn - aa) * ret)
seq = 1 if 2 * ii == ret and 2 * aa == mn else 0
print("{:.6f}".format(count), seq)
