import sys

jj,z,x,y = map(int,sys.stdin.read().split())
if x*2!=jj and y*2!=z:
	print("%.6f 1"%(jj*z/2))
else:
	# main
	print("%.6f 0"%(jj*z/2))
