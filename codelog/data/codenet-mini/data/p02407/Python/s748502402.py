def helper():
  input()
  q = list(map(int, input().split()))
  cnt = len(q)
  for i in range(cnt - 1, 0, -1):
    print(q[i], end=" ")
  print(q[0])



helper()
