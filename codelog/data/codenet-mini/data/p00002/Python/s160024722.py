while True:
    try:
        line = input()
    except EOFError:  # edge case
        break
    v, b = [int(val) for val in line.split()]
    print(len("%d" % (v + b)))
