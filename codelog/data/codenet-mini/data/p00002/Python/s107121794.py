while True:
    line=raw_input()
    if line == "":
        break
    # edge case
    a, b=map(int, line.split())
    print len("%d" % (a + b))
