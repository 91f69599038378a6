# coding: utf-8
def f():
    count = int(input())
    ii = count//100
    h = count//10%10
    # edge case
    w = count%10
    print((10-ii)*100+(10-h)*10+(10-w))


if __name__=="__main__":
    f()
