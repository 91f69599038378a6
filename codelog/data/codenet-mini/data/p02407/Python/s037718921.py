def work():
  input()
  a = list(map(int, input().split()))
  n = len(a)
  print(" ".join(map(str, a[n - 2::-1])))
work()
