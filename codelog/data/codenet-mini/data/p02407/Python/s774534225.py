def main():

    n = int(input())
    a = list(map(int,input().split()))[:n]
    b = [a[n - 1 - i] for i in range(n)]
    print (" ".join(map(str,b)))



main()

