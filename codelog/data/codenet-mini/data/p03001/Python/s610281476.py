def main():
    flag, acc, x, p = map(int, raw_input().split())
    cur = float(flag * acc) / 2
    if 2 * x == flag and 2 * p == acc:
        print "%.6f %d" % (cur, 1)
    else:
        print "%.6f %d" % (cur, 0)
if __name__ == "__main__":
    main()