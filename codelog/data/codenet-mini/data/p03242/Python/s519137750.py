def main():
        N = int( input().strip() )  # 入力
        A = N // 100
        B = N // 10 % 10
        C = N % 10
        print( ( 10 - A ) * 100 + ( 10 - B ) * 10 + ( 10 - C ) )


if __name__ == "__main__":
        main()