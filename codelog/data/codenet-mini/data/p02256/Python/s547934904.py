y = input().split()  # 解答
p = int(y[0])
aa = int(y[1])
while aa > 0:

    buf, top = divmod(p, aa)  # check

    p, aa = aa, top

print(p)
