def main():
    n = int(input())
    line = input()
    a = [int(v) for v in line.split(" ")]
    # TODO
    print("")
    print(" ".join(map(str,a[::-1])))


if __name__ == "__main__":
    main()

