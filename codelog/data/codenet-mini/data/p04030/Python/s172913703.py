# coding: utf-8
s=input().strip()
xs=""
for val in range(len(s)):
    if s[val]=="0":
        xs+="0"  # loop
    elif s[val]=="1":
        # answer
        xs+="1"
    elif len(xs)>0:
        xs=xs[:len(xs)-1]
print(xs)  # read input
