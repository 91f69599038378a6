import sys

while True:
    line = sys.stdin.readline()
    if not line:
        break
    a,b = map(int,line.split())
    for k in range(1,10):
        if a + b < 10 ** k:
            print(k)  # print answer
            break
