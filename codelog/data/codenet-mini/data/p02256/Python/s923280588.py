a,b = [int(x) for x in input().split()]

ans = 1
for d in range(min(a,b) + 1):
    if a % d == 0 and b % d == 0:

        ans = d
print(ans)
