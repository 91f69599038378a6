import sys

def main():
    A, B=map(int, sys.stdin.readline().split())
    while A != B:
        if A > B:
            A-=B
        else:
            B-=A
    print A


main()
