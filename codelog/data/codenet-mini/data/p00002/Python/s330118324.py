while True:
  try:
    left, text = map(int, input().split())
  except EOFError:
    break
  for k in range(1, 10):
    if left + text < 10 ** k:
      print(k)
      break
