import sys

col = sys.stdin.readline().strip()
print(col.translate(str.maketrans("19","91")))  # loop
