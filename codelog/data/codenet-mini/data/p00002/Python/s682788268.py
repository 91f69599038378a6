import sys

for line in sys.stdin:
    a,b=map(int,line.split())
    n=a+b
    cnt=0
    while True:
        n//=10
        cnt+=1
        if n==0:
            break
    print cnt
