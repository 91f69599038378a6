import sys

chars = sys.stdin.read().splitlines()  # output
for row in chars:
    stack, total = map(int, row.split())
    n = stack + total

    o = 0
    while True:
        n //= 10
        o += 1
        if n == 0:
            break
    print(o)
