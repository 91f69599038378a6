import sys

def main():
    vals,length,g,flag = map( int,sys.stdin.read().split() )
    w = float( vals * length ) / 2
    if 2 * g == vals and 2 * flag == length:
        print( "%.6f %d" % ( w,1 ) )
    else:
        print( "%.6f %d" % ( w,0 ) )


main()
