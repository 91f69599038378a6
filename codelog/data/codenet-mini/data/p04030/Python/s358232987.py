# coding: utf-8
from collections import deque

s = input()
q = deque()
for n1 in s:
    # 答え
    if n1 == "B":
        if q:
            q.pop()
    else:  # read input
        q.append(n1)
print ("".join(q))

