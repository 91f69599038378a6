# TODO
d, idx, data, y = [int(vals) for vals in input().split()]  # input
print("{:.6f} {}".format(d * idx / 2, 1 if 2 * data == d or 2 * y == idx else 0))
