# coding: utf-8
# output
L = list(map(int,input().split()))
# O(N)
W,H,X,Y = L[0],L[1],L[2],L[3]
print(W * H / 2,0 if X * 2 == W and Y * 2 == H else 1)
