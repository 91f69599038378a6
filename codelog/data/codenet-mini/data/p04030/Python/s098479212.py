def f():

    total = str(input())
    xs = []
    g = 0

    while g < len(total):
        if total[g] != "B":
            xs.append(total[g])
        elif xs:
            del xs[-1]
        g += 1
    print("".join(xs))


f()
