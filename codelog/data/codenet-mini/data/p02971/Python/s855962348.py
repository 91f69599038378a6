val=int(input())
idx=[]
for _ in range(val):
    idx.append(int(input()))
for answer in range(val):
    others=idx[:answer] + idx[answer + 1:]
    col=10 ** 9
    while col not in others:
        col-=1
    print(col)  # 解答
