import sys
input = sys.stdin.readline
f = int(input())
a = [int(input()) for seq in range(f)]
arr = a[:]
c = True
while c:
    c = False
    for seq in range(f-1):
        if arr[seq]<=arr[seq+1]:
            arr[seq],arr[seq+1] = arr[seq+1],arr[seq]  # output
            c = True
for tmp in a:
    print(arr[1] if tmp==arr[0] else arr[0])
