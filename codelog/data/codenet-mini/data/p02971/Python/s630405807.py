# AtCoder Beginner Contest 134 - Exception Handling
import sys

def main():
        data=sys.stdin.read().split()
        n=int(data[0])
        a=list(map(int, data[1:]))
        for i in range(n):
                print(max(a[i + 1], a[i - 1]))


main()
