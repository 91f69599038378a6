import sys
while True:
    chars = sys.stdin.readline()
    if not chars:
        break
    a, f = map(int, chars.split())
    # TODO
    print len("".join([a, f]))