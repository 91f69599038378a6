import sys

n = int(sys.stdin.readline())
ans = 0
for d in str(n):
    ans = ans*10+(10-int(d))  # O(N)
print(ans)
