input()
n1 = list(map(int, input().split()))
bb = len(n1)
right = [n1[bb - 1 - g] for g in range(bb)]
print(" ".join(map(str, right)))
