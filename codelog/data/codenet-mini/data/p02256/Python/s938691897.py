# -*- coding: utf-8 -*-
def gcd(x, y):
    if y==0:
        return x
    return gcd(y, x%y)



def main():
    a, b=map(int, input().split())
    print(gcd(a, b))


main()
