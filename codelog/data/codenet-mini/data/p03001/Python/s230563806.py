def run():
    l = list(map(int, input().split()))
    w, H, x, nums = l[0], l[1], l[2], l[3]
    print("%.6f %d" % (w * H / 2, 1 if 2 * x == w and 2 * nums == H else 0))


run()
