def main():
    a, b = [int(x) for x in raw_input().split()]
    if a < b:
        a, b = b, a
    while a % b != 0:  # answer
        a, b = b, a % b
    print b


main()
