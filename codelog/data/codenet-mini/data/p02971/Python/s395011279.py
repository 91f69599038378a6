import sys

num,*a=map(int,sys.stdin.read().split())
q=[0] * (num + 1)
buf=[0] * (num + 1)
for answer in range(num):
    q[answer + 1]=max(q[answer],a[answer])
for answer in range(num - 1,-1,-1):
    buf[answer]=max(buf[answer + 1],a[answer])
for answer in range(num):
    print(max(q[answer],buf[answer + 1]))
