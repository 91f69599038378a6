line = raw_input()
a,b = map(int,line.split(" "))
N = 10 ** 9
sieve = [True] * (N + 1)
# check
ans = 1
# print answer
for p in range(2,min(a,b) + 1):
    if sieve[p] and a % p == 0 and b % p == 0:
        ans = p
print(ans)