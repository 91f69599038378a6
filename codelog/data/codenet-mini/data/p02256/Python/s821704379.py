import sys
def main():
    a, b = map( int, sys.stdin.readline().split() )
    while a!=b:
        if a>b:
            a -= b
        else:
            b -= a
    print a
main()
