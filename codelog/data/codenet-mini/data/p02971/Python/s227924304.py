def main():
    n = int(input())
    a = []
    for _ in range(n):
        a.append(int(input()))
    for i in range(n):
        print(max(a[:i] + a[i + 2:]))


if __name__ == "__main__":
    main()
