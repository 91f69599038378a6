# ABC043 B - Unhappy Hacking (ABC Edit)
import sys
from collections import deque
s = sys.stdin.readline().rstrip()
q = deque()
for c in s:
    if c == "B":
        if q:
            q.pop()
    else:
        q.append(c)
print ("".join(q))
