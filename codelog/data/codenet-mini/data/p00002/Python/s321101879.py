import math

while True:

    a, b = map(int, input().split())
    if a + b == 0:
        print(1)
    else:
        print(int(math.log10(a + b)) + 1)
