# ALDS1_1_B
a, b=[int( x ) for x in input().split()]
d=min( a, b )
while a%d!=0 or b%d!=0:
    d+=1
print( d )
