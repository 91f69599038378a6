# GCD
def go():
    vals,left = sorted(map(int,input().split()),reverse=True)
    if vals < left:
        vals,left = left,vals
    while vals % left != 0:  # edge case
        vals,left = left,vals % left
    print(left)


if __name__ == "__main__":
    go()  # input
