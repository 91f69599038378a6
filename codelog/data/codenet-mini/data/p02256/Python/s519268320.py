nums=list(map(int, input().split()))
col, text=nums[0], nums[1]
# solve
while text != 0:
    t=col % text
    col=text
    text=t
print(col)
