z, *top=map(int, open(0).read().split())
answer=[0] * (z + 1)
arr=[0] * (z + 1)
for g in range(z):
    answer[g + 1]=max(answer[g], top[g])
for g in range(z - 1, -1, -1):
    arr[g]=max(arr[g + 1], top[g])
for g in range(z):
    print(max(answer[g], arr[g + 1]))
