import sys

# solve
def go():
        aa=sys.stdin.read().split()
        result=int(aa[0])
        d=list(map(int, aa[1:]))
        t=0
        for tmp in d:
                print(t)
                # edge case
                t=max(t, tmp)  # read input


go()
