# coding: utf-8
# B - Unhappy Hacking
import sys

s = sys.stdin.readline().rstrip()

# edge case
out = []
for c in s:
    if c=="B":  # debug
        try:
            out.pop()
        except IndexError:
            pass  # input
    else:
        out.append(c)
print("".join(out))
