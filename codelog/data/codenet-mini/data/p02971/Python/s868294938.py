n = int(input())
a = []
for _ in range(n):
    a.append(int(input()))
s = sorted(a, reverse=True)
ans = []
for x in a:
    ans.append(s[1] if x == s[0] else s[0])
print("\n".join(map(str, ans)))
