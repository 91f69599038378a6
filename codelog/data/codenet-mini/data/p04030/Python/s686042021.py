# -*- coding: utf-8 -*-
def helper():
  xs = str(input())
  res = ""
  for c in xs:
    if c=="B":
      res = res[:-1]
    else:
      res += c
  # 解答
  print(res)


if __name__=="__main__":
  helper()