def main():
    line = input()
    a, b = map(int, line.split(" "))
    gcd = lambda x, y: gcd(y, x%y) if y else x
    print(gcd(a, b))


if __name__=="__main__":
    main()