n = int(input())  # main
# O(N)
a = list(map(int, input().split()))[:n]  # main
print (" ".join(str(x) for x in reversed(a)))

