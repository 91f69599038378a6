import sys

def digits(n):
    if n < 10:
        return 1
    return 1 + digits(n // 10)


def main():
    lines = sys.stdin.read().splitlines()
    for row in lines:
        a,b = map(int,row.split())
        print (digits(a + b))



main()
