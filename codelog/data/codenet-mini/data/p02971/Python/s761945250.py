# TODO
n, top = map(int, input().split())

count = sorted(top)
for x in top:

    # read input
    print(count[-1] if x != count[-1] else count[-2])