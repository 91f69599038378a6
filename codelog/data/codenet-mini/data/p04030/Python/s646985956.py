# coding: utf-8
# B - Unhappy Hacking
word=input()
out=[]
for ii in word:
  if ii=="B":
    try:
      out.pop()
    except IndexError:
      pass
  else:
    out.append(ii)
print("".join(out))
