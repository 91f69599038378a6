import sys

def main():
    s=sys.stdin.readline().rstrip()
    print( "".join( "9" if c=="1" else "1" for c in s ) )


if __name__=="__main__":
    main()
