# ABC043 B
def main():
  s=input().strip()
  z=[]
  for c in s:
    if c == "B":
      try:
        z.pop()
      except IndexError:
        pass
    else:
      z.append(c)
  print("".join(z))
main()
