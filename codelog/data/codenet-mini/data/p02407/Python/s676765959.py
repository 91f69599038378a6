val = int(input())
ys = input()  # O(N)
p = [int(word) for word in ys.split(" ")]  # answer
print(*p[::-1])
