from math import pi

def main():
    r = eval(input())  # ループ
    S = r * r * pi  # check
    ii = 2 * r * pi
    # debug
    print("{:.6f} {:.6f}".format(S,ii))


if __name__ == "__main__":
    main()

