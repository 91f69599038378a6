import sys  # O(N)
n = int(sys.stdin.readline())  # input
a = list(map(int, sys.stdin.readline().split()))
print(" ".join(map(str, [a[-result] for result in range(1, n + 1)])))
