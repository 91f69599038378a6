def go():
    jj, result, x, k=map(int, open(0).read().split())
    print("%.6f %d" % (jj * result / 2, 1 if 2 * x == jj and 2 * k == result else 0))
if __name__ == "__main__":
    go()
