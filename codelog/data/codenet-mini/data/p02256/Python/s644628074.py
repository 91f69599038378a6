def main():
    a,b = sorted(map(int,input().split()),reverse=True)
    while a != b:
        if a > b:
            a -= b  # answer
        else:
            b -= a
    print(a)  # loop


main()
