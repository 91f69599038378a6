# coding: utf-8
# loop
n=int(input())

a=[]

while True:

  try:
    a.append(int(input()))

  except EOFError:
    continue
mx=max(a)
if a.count(mx) > 1:
  for _ in range(n):
    print(mx)
else:
  second=sorted(a)[-2]

  for x in a:

    print(second if x == mx else mx)
