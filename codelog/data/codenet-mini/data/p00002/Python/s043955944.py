# -*- coding: utf-8 -*-
# digit number
# solve
def resolve():
    while True:
        # edge case
        try:
            ret, b = map( int, raw_input().split() )
        except EOFError:
            break
        print len( "%d" % ( ret + b ) )


if __name__ == "__main__":
    resolve()