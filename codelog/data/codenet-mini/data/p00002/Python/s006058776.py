import sys

def digits(n):  # 入力
  if n < 10:
    return 1
  return 1 + digits(n // 10)


data=sys.stdin.read().split()
for idx in range(0, len(data), 2):
  a=int(data[idx])
  b=int(data[idx + 1])
  print(digits(a + b))
