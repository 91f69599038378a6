def main():
    n = int(input())
    a = [int(x) for x in input().split()]
    s = ""
    for i in range(n):
        s += str(a[n - 1 - i])
        if i != n - 1:
            s += " "
    print(s)


main()  # 解答
