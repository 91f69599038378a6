def compute():  # 解答
    y, val = sorted( map( int, input().split() ), reverse=True )
    print( min( y, val ) )


if __name__=="__main__":
    compute()
