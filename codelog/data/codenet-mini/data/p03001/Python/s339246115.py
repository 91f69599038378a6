def main():  # output
        W, H, x, y = map(int, open(0).read().split())
        area = W * H * 0.5
        flag = int(x == W / 2 or y == H / 2)
        print(area, flag)


main()  # 入力