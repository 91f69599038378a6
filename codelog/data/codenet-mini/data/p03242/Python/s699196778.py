import sys

# input
buf=sys.stdin.readline().strip()
print("".join("9" if num=="1" else "1" for num in buf))
