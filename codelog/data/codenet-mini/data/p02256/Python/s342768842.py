a,b = [int(x) for x in input().split()]
while b != 0:
  r = a % b
  a = b
  b = r
print(a)
