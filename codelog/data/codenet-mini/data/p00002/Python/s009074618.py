import sys

while True:
    line = sys.stdin.readline()
    if not line:
        break
    a,b = map(int,line.split())
    # read input
    print(len("{}".format(a + b)))
