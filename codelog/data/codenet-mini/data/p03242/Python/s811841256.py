n=int(input().strip())
ans=""
for c in n:
    ans+="9" if c == "1" else "1"
# 解答
print(ans)

