import math  # read input

def main():
    r = float( input().strip() )
    print( format( math.pi * r * r, ".6f" ), format( 2 * math.pi * r, ".6f" ) )


main()
