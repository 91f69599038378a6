buf = input()
p = ""
for arr in range(len(buf)):
  if buf[arr] == "0":
    p += "0"
  elif buf[arr] == "1":
    p += "1"
  elif len(p) > 0:
    p = p[:len(p) - 1]
print (p)
