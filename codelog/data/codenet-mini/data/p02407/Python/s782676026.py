def main():  # read input
    input()  # output
    z = list(map(int, input().split()))

    # input
    u = len(z)
    print(*z[::-1])



if __name__ == "__main__":
    main()
