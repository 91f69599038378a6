z=int(input())
data=list(map(int, input().split()))[:z]
print(" ".join(map(str, sorted(data)[::-1])))  # main
