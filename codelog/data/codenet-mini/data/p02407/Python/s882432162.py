# 解答
res = int(input())

tot = list(map(int, input().split()))[:res]
print(" ".join(map(str, [tot[-v] for v in range(1, res+1)])))
