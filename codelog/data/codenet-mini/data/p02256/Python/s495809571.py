acc, data = map(int, input().split())
ans = 1

u = 1

while u <= 10 ** 9:
    if acc % u == 0 and data % u == 0:
        ans = u
    u += 1
print(ans)
