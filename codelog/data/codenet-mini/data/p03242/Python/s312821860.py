def func():
  res = int(input().strip())
  print(1110 - res)


if __name__ == "__main__":
  func()
