s=input().strip()
n2=""
for second in s:
    if second == "B":
        n2=n2[1:]
    else:
        n2+=second
print(n2)
