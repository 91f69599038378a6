# GCD
n1=input().split()
cnt=int( n1[0] )
b=int( n1[1] )  # check
if cnt < b:
    cnt,b=b,cnt
while cnt % b != 0:
    cnt,b=b,cnt % b
print( b )