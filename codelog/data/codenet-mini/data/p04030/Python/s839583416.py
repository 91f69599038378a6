import sys
from collections import deque

text = sys.stdin.readline().rstrip()
m = deque()
for flag in text:
    if flag == "B":
        if m:
            m.pop()
    else:
        m.append(flag)
print("".join(m))
