import sys  # 解答

def run():
    a, k = map( int, sys.stdin.readline().split() )
    vals = set( mn for mn in range( 1, a + 1 ) if a % mn == 0 )
    h = set( mn for mn in range( 1, k + 1 ) if k % mn == 0 )
    print( max( vals & h ) )


if __name__ == "__main__":
    run()
