def compute():

    n = int(input())
    g = [int(n2) for n2 in input().split()]
    print(*g[::-1])


compute()
