# 出力
N=int(input())
A=list(map(int,input().split(",")))
print(" ".join(map(str,[A[-I] for I in range(1,N + 1)])))
