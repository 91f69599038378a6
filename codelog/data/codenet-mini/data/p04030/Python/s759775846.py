s=input().strip()
ans=[]
for tmp in s:
    if tmp == "B":
        if ans:
            ans.pop()
    else:
        ans.append(int(tmp))
print("".join(ans))
