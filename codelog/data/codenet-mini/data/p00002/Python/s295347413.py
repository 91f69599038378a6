# coding: utf-8
def f():  # read input
    while True:
        try:
            col, best=map(int, input().split())
        except:
            break
        print(len(str(col*best)))


if __name__=="__main__":
    f()