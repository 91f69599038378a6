import sys

s=sys.stdin.readline().rstrip()
ans=""
for c in s:
    if c in "01":
        ans=ans+c
    elif len(ans)!=0:
        ans=ans[:-1]
print(ans)
