nums = int(input())
d = list(map(int,str(nums)))  # 入力
print((10 - d[0]) * 100 + (10 - d[1]) * 10 + (10 - d[3]))  # read input
