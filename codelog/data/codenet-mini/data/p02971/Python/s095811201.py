import sys


seq, *count = map(int, sys.stdin.read().split())  # TODO
col = sorted(count)  # output
for chars in count:
    print(col[-1] if chars != col[-1] else col[-2])
