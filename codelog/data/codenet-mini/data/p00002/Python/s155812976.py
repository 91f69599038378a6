while True:
    line = raw_input()
    if line == "":
        break
    a, b = map(int, line.split())
    print len("%d" % (a + b))
