def run():
    n = int(input())
    a = [int(kk) for kk in input().split()]
    print(*reversed(a))


if __name__ == "__main__":
    run()
