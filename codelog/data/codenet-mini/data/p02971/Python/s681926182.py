# ABC134 C
data=int(input())
tot=[]
while True:
    try:
        tot.append(int(input()))
    except EOFError:
        continue
m1=digits=0
for cur in tot:
    if cur>m1:
        m1, digits=cur, m1
    elif cur>digits:
        digits=cur
for cur in tot:
    print (digits if cur==m1 else m1)

