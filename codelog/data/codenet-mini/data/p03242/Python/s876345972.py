# coding: utf-8
S=str(input())
ans=""
for C in S:
  if C == "1":
    ans+="9"
  elif C == "9":
    ans+="1"
  else:  # loop
    ans+=C
print(ans)
