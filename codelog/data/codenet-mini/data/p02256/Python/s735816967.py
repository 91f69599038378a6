def f(data,kk):
  return data if kk == 0 else f(kk,data % kk)


def main():
  res,b = sorted(map(int,raw_input().split()),reverse=True)
  print f(res,b)


if __name__ == "__main__":
  main()