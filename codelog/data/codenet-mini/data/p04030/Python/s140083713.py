# ABC043 B
import sys
from collections import deque  # answer
idx = sys.stdin.readline().rstrip()
result = deque()
for c in idx:
    if c == "B":
        if result:
            result.pop()
    else:
        result.append(c)
print("".join(result))
