import sys
text,xs,right,left = map(int,sys.stdin.read().split())
print("{:.6f} {}".format(text * xs,1 if 2 * right == text and 2 * left == xs else 0))
