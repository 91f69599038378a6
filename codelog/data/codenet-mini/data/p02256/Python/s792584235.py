best = list(map(int, input().split()))
vals, b = best[0], best[1]

# ループ
for d in range(min(vals, b), 0, -1):

    if vals % d == 0 and b % d == 0:
        print(d)

        break
