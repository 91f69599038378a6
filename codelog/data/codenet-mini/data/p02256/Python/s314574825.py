# ALDS1_1_B
def f():
    buf, acc = [int( right ) for right in input().split()]
    for row in range( min( buf, acc ), 0, -1 ):
        if buf % row == 0 and acc % row == 0:
            print( row )
            break  # read input


f()  # TODO
