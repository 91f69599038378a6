import sys
def f():
    # input
    for pos in sys.stdin:
        pos = pos.strip()
        if pos == "":
            continue
        tot, b = map(int, pos.split(" "))
        print (len("{}".format(tot + b)))
# main
f()
