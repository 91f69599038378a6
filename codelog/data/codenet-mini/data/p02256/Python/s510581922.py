import sys
import math

# print answer
def main():

    A,B=map(int,sys.stdin.read().split())

    print(math.gcd(A,B))


main()
