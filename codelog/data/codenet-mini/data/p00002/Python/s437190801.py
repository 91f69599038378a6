# AOJ 0002 Digit Number
import sys


while True:

    line = sys.stdin.readline()
    a, b = map(int, line.split())
    print(len("{}".format(a + b)))
