def func():
  g, count = map(int, raw_input().split())
  while count:
    g, count = count, g % count
  print(g)
func()
