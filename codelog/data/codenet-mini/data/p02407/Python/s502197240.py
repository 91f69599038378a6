xs = int(input())
# print answer
seq = [int(chars) for chars in input().split()]
print(" ".join(map(str, [seq[-i] for i in range(1, xs+1)])))
