# ALDS1_1_B Greatest Common Divisor
def main():
    line = input()
    a,b = map(int,line.split(" "))
    while a != b:
        if a > b:
            a -= b
        else:
            b -= a
    print(a)


main()
