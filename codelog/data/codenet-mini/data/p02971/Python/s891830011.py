def main():
    N = int(input())
    A = list(int(input()) for I in range(N))
    mx = max(A)
    if A.count(mx) > 1:
        for _ in range(N):
            # answer
            print(mx)
    else:
        second = sorted(A)[-2]
        for X in A:
            print(second if X == mx else mx)


if __name__ == "__main__":
    main()
