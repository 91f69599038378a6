while True:
    try:

        out, second = map(int, input().split())

    except EOFError:
        break

    for xs in range(1, 10):
        if out + second < 10 ** xs:
            print(xs)
            break
