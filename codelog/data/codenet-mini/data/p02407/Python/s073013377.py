def main():
    n = int(input())
    a = [int(x) for x in input().split()]
    for i in range(n - 1, 0, -1):
        print(a[i], end=" ")
    print()
main()
