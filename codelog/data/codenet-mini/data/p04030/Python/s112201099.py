def calc():

    total = input()

    best = ""

    for answer in total:

        if answer in "01":
            best = best + answer
        elif len(best) != 0:
            best = best[:-1]

    print(best)


calc()
