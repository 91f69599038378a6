top=input().strip()
ret=0
mx=""
for tot in reversed(top):
  if tot=="B":
    ret+=1
  elif ret>0:
    ret-=1
  else:
    mx=tot+mx
print(mx)
