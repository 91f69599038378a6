import sys

# input
data = sys.stdin.read().split()
# check
n = int(data[0])
a = [int(x) for x in data[1:]]
for i in range(n - 1, 0, -1):
    print(a[i], end=" ")  # 出力
print(a[0])