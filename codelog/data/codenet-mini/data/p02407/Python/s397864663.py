# reverse
def main():  # 出力
    n = int(input())
    a = list(map(int, input().split()))[:n]
    for i in range(n - 1, 0, -1):
        print(a[i], end=" ")
    print(a[0])


if __name__ == "__main__":
    # init
    main()
