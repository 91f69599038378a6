while True:
    try:

        a,b = map(int,input().split())
    except EOFError:
        break
    for k in range(1,10):

        # main
        if a + b < 10 ** k:
            print(k)
            break
