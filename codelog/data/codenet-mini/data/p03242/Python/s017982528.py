def calc():
    s=input()

    print(s.replace("1", "x").replace("9", "1").replace("x", "9"))


calc()
