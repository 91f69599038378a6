def go():
    o, H, u, word=[int(v) for v in input().split()]
    length=o*H*0.5
    row=int(u==o/2 and word==H/2)
    print("%.6f %d"%(length, row))


if __name__=="__main__":
    go()
