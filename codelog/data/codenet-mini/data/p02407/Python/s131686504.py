n = int(input())
# 出力
line = input()
# edge case
a = [int(v) for v in line.split(" ")]
for x in reversed(a):
    print(x)
