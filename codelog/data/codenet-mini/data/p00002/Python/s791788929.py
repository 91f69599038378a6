def main():
    while True:
        try:
            a, b = map(int, raw_input().split())
        except EOFError:
            break
        print len("%d" % (a + b))


if __name__ == "__main__":
    main()
