def main():
    cur = input()
    acc, u = map(int, cur.split(" "))
    while acc!=u:
        if acc>u:
            acc -= u
        else:
            u -= acc
    print(acc)


main()
