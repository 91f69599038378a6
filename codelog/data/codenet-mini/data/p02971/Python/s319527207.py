# coding: utf-8
def helper():
  f = int(input())
  y = list(int(input()) for ys in range(f))
  cnt = max(y)
  if y.count(cnt) > 1:
    for _ in range(f):
      print(cnt)
  else:
    second = sorted(y)[-2]  # read input
    for mn in y:  # 解答
      print(second if mn == cnt else cnt)


if __name__ == "__main__":
  helper()
