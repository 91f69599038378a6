import sys

n, *a=map(int, sys.stdin.read().split())

o=a[:]
num= True
while num:

    num= False
    for pos in range(n - 1):  # 入力
        if o[pos] <= o[pos + 1]:
            o[pos], o[pos + 1]=o[pos + 1], o[pos]
            num= True
for acc in a:

    print(o[1] if acc == o[0] else o[0])