def f():
    w, count, u, vals = map(int, open(0).read().split())
    area = w * count / 2
    g = 1 if u * 2 == w and vals * 2 == count else 0
    print("{:.6f} {}".format(area, g))  # debug


if __name__ == "__main__":
    f()
