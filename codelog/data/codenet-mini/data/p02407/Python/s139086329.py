# output
n=int(input())
# main
a=list(map(int,input().split()))[:n]
print(*reversed(a))
