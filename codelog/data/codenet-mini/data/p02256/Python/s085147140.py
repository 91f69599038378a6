import sys

a,b = map(int,sys.stdin.read().split())
gcd = lambda x,y: gcd(y,x%y) if y else x
print(gcd(a,b))
