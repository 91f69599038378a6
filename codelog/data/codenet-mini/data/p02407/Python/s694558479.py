# Reversing Numbers
f=int(input())
h=list(map(int, input().split()))[:f]
print(" ".join(str(x) for x in reversed(h)))

