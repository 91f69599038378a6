import sys

def helper():
    jj=sys.stdin.read().split()
    n=int(jj[0])
    res=list(map(int,jj[1:]))
    g=sorted(res)
    for x in res:
        print(g[-2])


helper()
