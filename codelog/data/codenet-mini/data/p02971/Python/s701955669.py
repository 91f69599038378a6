def main():
    n, *a = map(int, open(0).read().split())
    for i in range(n):
        best = 0
        j = 0
        while j<n:
            if j!=i and a[j]>best:
                best = a[j]
        print(best)


main()
