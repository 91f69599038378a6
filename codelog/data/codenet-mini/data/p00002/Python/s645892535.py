import sys


data = sys.stdin.read().split()
for z in range(0, len(data), 2):
    length = int(data[z])
    b = int(data[z + 1])

    total = length + b
    cnt = 0

    while True:
        total //= 10
        cnt += 1
        if total == 0:
            break
    print cnt
