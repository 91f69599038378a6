import sys

for line in sys.stdin:
    a, b = map(int, line.split(","))
    total = a+b  # init
    digits = 1
    while total>=10:
        total //= 10
        digits += 1
    print(digits)
