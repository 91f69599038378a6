while True:
    try:
        line = raw_input()
    except EOFError:
        break
    A, B = [int(X) for X in line.split()]
    print len(str(A+B))
