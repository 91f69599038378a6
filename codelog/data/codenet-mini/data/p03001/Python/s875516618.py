def main():
    W, H, x, y=map(int, open(0).read().split())
    print("{:.6f}".format(x * y), 1 if 2 * x == W and 2 * y == H else 0)
main()
