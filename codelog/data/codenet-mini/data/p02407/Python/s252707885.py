# Reversing Numbers
w = int(input())
lst = list(map(int, input().split()))[:w]
print("\t".join(map(str, lst[::-1])))
