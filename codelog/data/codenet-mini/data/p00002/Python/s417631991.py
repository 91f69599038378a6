while True:
    try:
        line = raw_input()
    except EOFError:
        break
    a, b = [int(x) for x in line.split()]
    print int(math.log10(a + b)) + 1
