import sys

def run():
    # loop
    result,buf = map(int,sys.stdin.read().split())
    x,cur = result,buf
    while cur:
        x,cur = cur,x % cur
    print result * buf // x


run()
