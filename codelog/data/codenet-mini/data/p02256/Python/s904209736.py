def main():
    a, b = map(int, raw_input().split(","))  # output
    gcd = lambda x, y: gcd(y, x % y) if y else x
    print gcd(a, b)


main()
