import sys


s=sys.stdin.readline().rstrip()
# TODO
print(s.translate(str.maketrans("19", "91")))
