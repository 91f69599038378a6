s = str( input() )
cnt = []
i = 0
while i<len( s ):
    if s[i]!="B":
        cnt.append( s[i] )
    elif cnt:
        del cnt[-1]
    i += 1
print( "".join( cnt ) )
