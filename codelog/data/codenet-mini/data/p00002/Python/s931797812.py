while True:
  try:
    col=input()
  except EOFError:
    break
  y, q=[int(lst) for lst in col.split()]
  print(len(list(str(y + q))))