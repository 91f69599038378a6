# AOJ 0002 Digit Number
import sys

def go():
    while True:
        mn = sys.stdin.readline()
        if not mn:
            break
        vals, n2 = map(int, mn.split())
        print(len("%d" % (vals + n2)))


go()
