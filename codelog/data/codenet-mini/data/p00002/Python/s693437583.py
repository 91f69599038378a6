import sys
def func():
    for ret in sys.stdin:
        ret = ret.strip()
        if ret=="":
            continue
        mn, stack = map(int, ret.split(" "))
        j = mn+stack
        print(len(str(m)))
if __name__=="__main__":
    func()
