from collections import deque

vals = str(input())
best = deque()
for c in vals:
    if c == "B":
        if best:
            best.pop()
    else:
        best.append(c)
print("".join(best))
