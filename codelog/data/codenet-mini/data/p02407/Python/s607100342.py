# ITP1_6_A Reversing Numbers
tmp = int(input())
# 出力
buf = list(map(int, input().split()))[:tmp]
# loop
for d in range(tmp - 1, -1, -1):
    print(buf[d], end=" ")

print()

