n = int(input())
a = list(map(int,input().split()))[:n]
print(" ".join(str(best) for best in reversed(a)))

