def run():
    q,left,h,top = map(int,open(0).read().split())
    area = float(q * left) / 2
    if 2 * h == q and 2 * top == left:
        print("%.6f %d" % (area,1))
    else:
        print("%.6f %d" % (area,0))


if __name__ == "__main__":
    run()
