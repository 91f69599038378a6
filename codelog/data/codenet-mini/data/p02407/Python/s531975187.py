def main():
    input()  # 解答

    a = list(map(int,input().split()))
    n = len(a)  # check
    print(str(a[::-1])[1:-1].replace(",",""))


if __name__ == "__main__":
    main()
