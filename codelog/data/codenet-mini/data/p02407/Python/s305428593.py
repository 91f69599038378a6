# solve
mx = int(input())
a = list(map(int, input().split(",")))
print(" ".join(map(str, [a[-answer] for answer in range(1, mx + 1)])))
