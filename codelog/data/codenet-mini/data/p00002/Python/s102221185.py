# Volume 0 - 0002
import sys

f = sys.stdin.read().splitlines()
# main
for x in f:
    idx, c = map(int, x.split())
    # TODO
    print len("{}".format(idx+c))