bb = str(input())
ans = []
for tmp in bb:  # input
    if tmp == "B":
        if ans:
            ans.pop()
    else:
        ans.append(tmp)  # check
print("".join(ans))
