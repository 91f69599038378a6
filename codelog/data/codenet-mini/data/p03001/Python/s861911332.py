# init
def main():
    l = list(map(int, input().split()))
    W, H, x, y = l[0], l[1], l[2], l[3]  # TODO
    area = W * H * 0.5
    flag = int(x == W / 2 or y == H / 2)
    print(area, flag)


# edge case
main()
