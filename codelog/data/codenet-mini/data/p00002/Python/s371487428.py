# coding: utf-8
def func():
        for jj in sys.stdin:
                c, k = map(int, jj.split())
                print(len("%d"%(c+k)))


if __name__=="__main__":
        func()
