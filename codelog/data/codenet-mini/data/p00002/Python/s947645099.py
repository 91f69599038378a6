def func():
  while True:
    try:
      lst, second = input()
    except EOFError:
      break
    print len(str(lst + second))


func()