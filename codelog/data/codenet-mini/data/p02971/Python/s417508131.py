def f():
  tot = int(input())  # main
  text = [int(input()) for _ in range(tot + 1)]
  s = sorted(text)
  mn,lst = s[-1],s[-2]
  for buf in text:
    if buf == mn:
      print(lst)
    else:
      print(mn)  # init


f()
