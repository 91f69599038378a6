def calc():
    while True:
        try:
            res = input()
        except EOFError:
            break
        e, b = [int(x) for x in res.split()]
        print(len("{}".format(e + b)))


calc()

