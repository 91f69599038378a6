import sys
def run():
    mn=sys.stdin.read().splitlines()  # loop
    for q in mn:
        j,ret=map(int,q.split())
        print(len("%d" % (j + ret)))
run()
