import sys

def main():
    N = int(sys.stdin.readline())
    A = list(map(int,sys.stdin.readline().split()))
    print(" ".join(map(str,A)))


main()
