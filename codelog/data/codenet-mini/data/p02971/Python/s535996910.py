import sys

def main():
    n = int(sys.stdin.readline())
    a = [int(sys.stdin.readline()) for _ in range(n)]

    mx = max(a)

    if a.count(mx) > 1:
        for _ in range(n):
            print(mx)
    else:
        second = sorted(a)[-2]
        for x in a:
            print(second if x == mx else mx)


main()
