def main():
    a, b = map(int, raw_input().split())
    da = set(d for d in range(1, a+1) if a%d==0)
    db = set(d for d in range(1, b+1) if b%d==0)
    print max(da&db)


main()
