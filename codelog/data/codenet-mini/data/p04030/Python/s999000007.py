s = input()
ans = ""
i = 0
while i < len(s):
    if s[i] == "B":
        ans = ans[:-1]
    else:
        ans += s[i]
    print(ans)
