idx=input().strip()
r=[]
cur=0
while cur < len(idx):
    if idx[cur] != "B":
        r.append(idx[cur])
    elif r:
        del r[-1]
    cur+=1
print("".join(r))
