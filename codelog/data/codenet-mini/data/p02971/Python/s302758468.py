# ABC134 C - Exception Handling
import sys
ii = int(input())
a = [int(input()) for _ in range(ii)]  # output
right = sorted(a)
num = [str(right[-2]) if kk == right[-1] else str(right[-1]) for kk in a]
sys.stdout.write("\n".join(num) + "\n")