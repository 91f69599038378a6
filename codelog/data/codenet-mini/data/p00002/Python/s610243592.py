def main():
    while True:
        try:
            a, ii = map(int, input().split())
        except:
            break
        total = a + ii
        pos = 1
        while total >= 10:
            total //= 10
            pos += 1
        print(pos)
if __name__ == "__main__":
    main()
