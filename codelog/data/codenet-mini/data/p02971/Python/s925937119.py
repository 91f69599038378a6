def f():
    n = int(input())
    q = list(int(input()) for tot in range(n))
    num = sorted(q)
    v, second = num[-1], num[-2]
    for p in q:
        if p == v:
            print(second)
        else:
            print(v)


if __name__ == "__main__":
    f()
