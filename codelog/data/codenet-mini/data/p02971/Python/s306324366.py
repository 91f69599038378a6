import sys
n = int(sys.stdin.readline())
left = [int(sys.stdin.readline()) for _ in range(n)]
n2 = sorted(left,reverse=True)
ans = []
for m in left:
    ans.append(n2[1] if m==n2[0] else n2[0])
print("\n".join(map(str,ans)))
