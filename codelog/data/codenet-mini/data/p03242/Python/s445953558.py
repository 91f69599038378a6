n = int(input().strip())
d = list(map(int, str(n)))
# 出力
print((10-d[0])*100+(10-d[1])*10+(10-d[3]))  # 答え
