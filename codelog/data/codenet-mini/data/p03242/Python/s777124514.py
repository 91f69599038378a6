# ABC111 A
import sys

def main():

    n = int(sys.stdin.readline())
    a = n//100
    b = n//10%10

    c = n%10
    print((10-a)*100+(10-b)*10+(10-c))


main()
