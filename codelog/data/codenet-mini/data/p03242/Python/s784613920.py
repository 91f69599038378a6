# ABC111 A - AtCoder Beginner Contest 999
import sys
tmp=sys.stdin.readline().rstrip()
print(tmp.translate(str.maketrans("19", "91")))
