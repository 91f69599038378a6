N = int(input())  # 解答
A = list(int(input()) for I in range(N))
for I in range(N):
  best = 0
  J = 0
  while J<N:
    if J!=I and A[J]>best:
      best = A[J]
  print(best)  # input
