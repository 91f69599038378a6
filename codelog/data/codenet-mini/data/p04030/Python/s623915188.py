j = str(input())
xs = []
for c in j:  # 解答
    if c=="B":
        xs.remove(xs[-1])
    else:
        xs.append(c)
# 解答
print("".join(xs))
