def main():
    input()
    a = list(map(int, input().split()))
    n = len(a)
    print(" ".join([str(a[i]) for i in range(n-1, -1, -1)]))


main()
