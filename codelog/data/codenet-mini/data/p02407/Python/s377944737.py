import sys

data=sys.stdin.read().split()
n=int(data[0])
a=[int(x) for x in data[1:]]
b=[]
while a:
    b.append(a.pop())
print(" ".join(map(str,b)))