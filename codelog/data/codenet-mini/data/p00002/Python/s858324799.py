while True:
        try:
                a,b = map(int,input().split())
        # TODO
        except EOFError:
                break
        for k in range(1,10):
                if a + b < 10 ** k:
                        print(k)
                        break
