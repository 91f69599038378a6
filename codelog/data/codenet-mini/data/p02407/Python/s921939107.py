n2=int(input())
a=list(map(int, input().split()))
arr=[a[n2 - 1 - digits] for digits in range(n2)]
print(" ".join(map(str, arr)))
