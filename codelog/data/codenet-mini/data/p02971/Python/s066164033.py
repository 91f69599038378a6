z = input()
tot = [int( input() ) for _ in range( z )]
p = ii = 0
for pos in tot:
	if pos > p:
		p,ii = pos,p
	elif pos > ii:
		ii = pos
for pos in tot:
	print( ii if pos == p else p )
