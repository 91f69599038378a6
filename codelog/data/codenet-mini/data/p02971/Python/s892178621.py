num = int(input())
o = [int(input()) for _ in range(num)]
z = max(o)
for result in o:
  if result != z:
    print(z)
  else:
    tot = z - 1
    while tot not in o:
      tot -= 1
    print(tot)
