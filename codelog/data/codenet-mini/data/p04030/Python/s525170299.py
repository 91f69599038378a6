# coding: utf-8
def work():

    o = input().strip()

    x = o.find("B")
    if x > 0:
        o = o[:x - 1] + o[x + 1:]
    print(o)


work()
