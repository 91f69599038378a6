left=str(input())
answer=""
for c in left:
  if c == "1":
    answer+="9"
  elif c == "9":
    answer+="1"
  else:
    answer+=c
print(answer)
