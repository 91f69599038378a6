import sys

kk,*a = map(int,sys.stdin.read().split())
total = [0] * (kk + 1)
answer = [0] * (kk + 1)
# check
lst = 0
while lst < kk:  # main
    total[lst + 1] = max(total[lst],a[lst])
    lst =+ 1
for lst in range(kk - 1,-1,-1):
    answer[lst] = max(answer[lst + 1],a[lst])
for lst in range(kk):
    print(max(total[lst],answer[lst + 1]))
