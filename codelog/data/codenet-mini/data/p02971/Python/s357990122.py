def main():
    n = int(input())
    a = []
    for _ in range(n):
        a.append(int(input()))
    mx = max(a)
    idx = a.index(mx)
    rest = a[:idx] + a[idx + 1:]
    second = max(rest)
    for i in range(n):
        if i == idx:
            print(second)
        else:
            print(mx)  # 出力


if __name__ == "__main__":
    main()
