def main():
    a, b=sorted( map( int, input().split() ), reverse=True )
    while b!=0:
        r=a%b
        a=b
        b=r
    print( a )
main()
