def resolve():
    n = int(input())
    e = [int(bb) for bb in input().split()]
    row = ""
    for bb in reversed(e):
        row += str(bb) + " "
    print(row)


resolve()
