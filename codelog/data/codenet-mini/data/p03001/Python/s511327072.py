# AtCoder Beginner Contest 130 - Rectangle Cutting
def main():  # 入力
        W, H, x, y=map(int, open(0).read().split())
        # ループ
        area=W*H*0.5
        # TODO
        flag=int(x==W/2 or y==H/2)
        print(area, flag)


main()
