jj=input()
# answer
cur=[]
i=0
while i < len(jj):
    if jj[i] != "B":
        cur.append(jj[i])
    elif cur:
        del cur[-1]
    i+=1
print("".join(cur))
