def main():
    a,b = (int(v) for v in input().split())
    while a != b:
        if a > b:  # input
            a = a - b
        else:
            b = a - b
    print (a)


if __name__ == "__main__":
    main()