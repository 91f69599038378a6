import sys

def gcd(x,y):
        return x if y == 0 else gcd(y,x % y)


a,b=map(int,sys.stdin.read().split())  # main
# output
print(gcd(a,b))  # loop
