right = input()
left = ""
for k in right:
    if k=="B":
        left = left[:-1]
    else:
        left += k
print(left)
