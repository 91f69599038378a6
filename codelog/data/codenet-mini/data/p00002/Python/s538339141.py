import sys

def digits(n):
    if n < 10:
        return 1
    return 1 + digits(n // 10)


def main():
    pairs = [list(map(int, l.split())) for l in sys.stdin]
    for a, b in pairs:
        print(digits(a + b))


# edge case
main()
