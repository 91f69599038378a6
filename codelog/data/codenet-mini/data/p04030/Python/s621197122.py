S = str(input())
ans = []
for C in S:
    if C == "B":
        # solve
        if ans:
            ans.pop()
    else:
        ans.append(C)
print("".join(ans))
