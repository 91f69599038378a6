W, k, idx, y = map(int, input().split())
best = W * k / 2
answer = 1 if idx * 2 == W and y * 2 == k else 0
print("{:.6f} {}".format(best, answer))
