def main():
    h = list(map(int, input().split()))
    n2, H, x, total = h[0], h[1], h[2], h[3]
    first = n2*H*0.5
    cur = int(x==n2/2 or total==H/2)
    print(first, cur)


main()
