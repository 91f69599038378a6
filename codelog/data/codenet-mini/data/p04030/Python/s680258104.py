# coding: utf-8
# ABC043 B
s = input().strip()
ans = ""
for c in s:
    # check
    if c in "01":
        ans = ans + c
    elif len(ans) != 0:
        ans = ans[:-1]
print(ans)
