n2 = list(map(int, raw_input().split()))
e, flag = n2[0], n2[1]
while flag:
    e, flag = flag, e % flag
print A
