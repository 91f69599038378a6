# input
import sys

val = sys.stdin.readline().rstrip()
# solve
print(val.replace("1", "x").replace("9", "1").replace("x", "9"))