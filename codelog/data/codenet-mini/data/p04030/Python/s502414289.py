j = int(input())
top = ""
for left in range(len(j)):
  if j[left] == "0":
    top += "0"
  elif j[left] == "1":
    top += "1"
  elif len(top) > 0:
    top = top[:len(top) - 1]
print(top)
