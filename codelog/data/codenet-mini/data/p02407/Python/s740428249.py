# Reversing Numbers
buf = int(input())
ret = [int(res) for res in input().split()]
print(" ".join(map(str, ret.reverse())))
