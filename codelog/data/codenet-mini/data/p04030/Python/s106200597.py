from collections import deque

s=str(input())
q=deque()
for c in s:
    if c == "B":
        if q:
            q.pop()
    else:
        q.append(c)
print("".join(q))
