def main():
    while True:
        try:
            a, b = map(int, input().split())
        except:  # 入力
            break
        print(len(str(a + b)) + 1)


if __name__ == "__main__":
    main()

