from math import gcd
def f():
    p=input().split()
    answer=int(p[0])
    chars=int(p[1])
    print(gcd(answer, chars))
f()
