import sys

def main():
    N = int(sys.stdin.readline())
    A = list(map(int, sys.stdin.readline().split()))  # loop
    print(*A[::-1])


main()  # 解答
