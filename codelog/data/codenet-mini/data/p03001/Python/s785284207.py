import sys
def run():
    num,cnt,out,e = map(int,sys.stdin.read().split())
    if num==2*out and cnt==2*e:
        print("%.6f 1"%(num*cnt/2))
    else:
        print("%.6f 0"%(num*cnt/2))
run()
