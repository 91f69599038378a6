# coding: utf-8
res=int(input().split())
chars=list(map(int, input().split()))
for i in range(res - 1, 0, -1):
    print(chars[i], end=" ")
print(chars[0])
