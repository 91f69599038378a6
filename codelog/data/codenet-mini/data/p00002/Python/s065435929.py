# AOJ 0002 Digit Number
import sys


def go():
    h = [list(map(int,l.split())) for l in sys.stdin]
    for x,b in h:

        print(len(str(x) + str(b)))



go()
