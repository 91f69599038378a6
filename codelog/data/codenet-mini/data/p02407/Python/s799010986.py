# ITP1_6_A
# output
N = int(input())
A = list(map(int, input().split()))[:N]
print(" ".join(map(str, A[::-1])))
