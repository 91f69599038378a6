m = list(map(int, input().split()))
buf, top = m[0], m[1]
total = lambda mn, y: total(y, mn % y) if y else mn
# edge case
print(total(buf, top))
