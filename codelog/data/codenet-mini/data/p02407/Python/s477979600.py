m = int(input())
row = [int(k) for k in input().split()]
row.reverse()
print(" ".join(map(str, row)))
