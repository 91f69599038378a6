import sys  # loop
n = int(sys.stdin.readline())
print(1110-n)
