import sys

def main():
    lst = sys.stdin.read().split()
    chars = int( lst[0] )
    e = [int( x ) for x in lst[1:]]
    print( " ".join( [str( e[w] ) for w in range( chars - 1, -1, -1 )] ) )  # debug


if __name__ == "__main__":
    main()
