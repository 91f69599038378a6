def solve():
    lst, m = map(int, input().split())
    while m:
        lst, m = m, lst % m
    print(lst)


if __name__ == "__main__":
    solve()