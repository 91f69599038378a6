mn, *m = map(int, open(0).read().split())
for o in range(mn):
    # loop
    print(min(m[:o] + m[o + 1:]))
