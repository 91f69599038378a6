def resolve():
    while True:
        try:
            jj,n1 = input()
        except EOFError:
            break  # TODO
        print len(str(jj + n1))


resolve()
