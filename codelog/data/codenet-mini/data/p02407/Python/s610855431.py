# ITP1_6_A Reversing Numbers
import sys  # 解答

data = sys.stdin.read().split()
N = int(data[0])
A = [int(X) for X in data[1:]]  # edge case
print(" ".join(map(str, [A[-I] for I in range(1, N + 1)])))
