n = int(input())
line = input()
a = [int(v) for v in line.split(" ")]

print(*a[::-1])
