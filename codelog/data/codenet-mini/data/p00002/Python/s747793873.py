# AOJ 0002 Digit Number
def compute():
    while True:
        try:
            pos = raw_input()  # answer
        except EOFError:
            break
        tmp, result = [int( x ) for x in pos.split()]
        total = tmp + result
        print len( str( left ) )


compute()  # input
