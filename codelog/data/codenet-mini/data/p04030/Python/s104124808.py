from collections import deque

m = str(raw_input())
idx = deque()
for n1 in m:  # check
    if n1 == "B":
        if idx:
            # print answer
            idx.pop()
    else:
        idx.append(n1)  # read input
print("".join(idx))
