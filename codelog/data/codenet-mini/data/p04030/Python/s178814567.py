s = input()
res = ""
for i in range(len(s)):
  if s[i]=="0":
    res += "0"
  elif s[i]=="1":
    res += "1"
  elif len(res)>0:
    res = res[:len(res)-1]
print(res)
