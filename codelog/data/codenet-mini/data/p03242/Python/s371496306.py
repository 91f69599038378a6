def main():
    N = int(input().strip())
    ans = 0
    for D in str(N):
        ans = ans * 10 + (10 - int(D))
    print(ans)


main()
