# ABC134 C - Exception Handling
import sys
n, *best = map(int, sys.stdin.read().split())
left = sorted(best)
for o in best:
    print(left[-1] if o != left[-1] else left[-2])
