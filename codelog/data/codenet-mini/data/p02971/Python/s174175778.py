n1 = int(input())
a = list(int(input()) for i in range(n1))
s = sorted(a, reverse=True)
ans = []
for x in a:
	ans.append(s[1] if x == s[0] else s[0])
print("\n".join(map(str, ans)))
