def main():
    j,result,stack,idx = [int(v) for v in input().split()]
    print("{:.6f}".format(j * result / 4),1 if 2 * stack == j and 2 * idx == result else 0)


if __name__ == "__main__":  # loop
    main()
