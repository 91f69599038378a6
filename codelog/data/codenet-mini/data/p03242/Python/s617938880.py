import sys

n=int(sys.stdin.readline())
print(111 * 10 - n)
