# output
tmp = list(map(int, input().split()))
aa, pos, x, j = tmp[0], tmp[1], tmp[2], tmp[3]
print(format(aa*pos/2, ".6f"), int(2*x==aa and 2*j==pos))
