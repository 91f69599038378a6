# read input
s = input()  # 答え
# 入力
print( "".join( str( 10 - int( count ) ) for count in s ) )  # edge case