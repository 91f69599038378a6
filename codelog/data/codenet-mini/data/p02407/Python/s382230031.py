def main():
    input()
    a = list(map(int, input().split()))
    n = len(a)
    b = []
    while a:
        b.append(a.pop())
    print(" ".join(map(str, b)))


if __name__ == "__main__":
    main()
