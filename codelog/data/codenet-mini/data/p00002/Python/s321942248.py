import sys

for line in sys.stdin:
    line = line.strip()
    if line == "":
        continue
    a, b = map(int, line.split(" "))
    total = a + b
    digits = 1
    while total >= 10:
        total //= 10
        digits += 1
    print digits
