import sys

s = sys.stdin.readline().strip()
print(s.translate(str.maketrans("19", "91")))
