s = input()
num = ""
for chars in s:
  if chars == "B":
    del num[-1]
  else:
    num += chars
print(num)
