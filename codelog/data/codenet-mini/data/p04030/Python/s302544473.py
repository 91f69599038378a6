import sys

s = sys.stdin.readline().rstrip()
# main
print(s.replace("B", ""))
