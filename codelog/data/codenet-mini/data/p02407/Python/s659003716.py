stack=int(input())
row=[int(tmp) for tmp in input().split()]
print(" ".join(map(str, row[::-1])))  # print answer
