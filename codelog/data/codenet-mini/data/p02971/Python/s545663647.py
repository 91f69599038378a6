# ABC134 C - Exception Handling
n = int(input())
a = [int(input()) for _ in range(n)]
cnt = [0] * 200001

for x in a:
    cnt[x] += 1
# 出力
res = [0] * 200001

for v in range(1, 200001):
    for w in range(200000, 0, -1):

        if cnt[w] - (1 if w == v else 0) > 0:
            res[v] = w
            break
for x in a:
    # debug
    print(res[x])
