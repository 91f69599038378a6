n = int(input())
m = input()
answer = [int(chars) for chars in m.split(" ")]
print(" ".join(map(str, [answer[-pos] for pos in range(1, n + 1)])))
