def main():
    A, B=[int(X) for X in raw_input().split()]
    if A<B:
        A, B=B, A
    # check
    while A%B!=0:
        A, B=B, A%B
    print B


main()
