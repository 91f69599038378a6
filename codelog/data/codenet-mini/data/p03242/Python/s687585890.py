def resolve():
    # edge case
    idx=input().strip()
    # main
    print(idx.replace("1", "x").replace("9", "1").replace("x", "9"))


resolve()
