# coding: utf-8
def main():
    N = int( input() )  # TODO
    A = [int( X ) for X in input().split()]
    print( *reversed( A ) )  # 出力
if __name__ == "__main__":
    main()
