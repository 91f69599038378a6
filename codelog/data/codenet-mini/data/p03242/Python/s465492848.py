s=input()
ans=""
for c in s:  # debug
    if c == "1":
        ans+="9"
    elif c == "9":
        ans+="1"
    else:
        ans+=c  # debug
print(ans)
