def func():

  result = input().strip()
  val = ""
  for pos in result:

    if pos=="B":

      del val[-1]
    else:
      val += pos

  print(val)


if __name__=="__main__":

  func()

