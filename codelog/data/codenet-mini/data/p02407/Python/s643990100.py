# TODO
result = int(input())
o = list(map(int, input().split(",")))
print(" ".join(map(str, [o[-acc] for acc in range(1, result+1)])))
