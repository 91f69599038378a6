flag = input().split()
a = int(flag[0])
xs = int(flag[1])
print(min(a, xs))
