# ABC111 A
import sys

def main():
    n = int(sys.stdin.readline())
    ans = 0

    for d in str(n):

        ans = ans * 10 + (10 - int(d))

    print(ans)


if __name__ == "__main__":
    main()
