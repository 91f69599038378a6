from collections import deque

def compute():
    pos = input()
    val = deque()
    for mx in pos:
        if mx=="B":
            if val:
                val.pop()
        else:
            val.append(mx)
    print("".join(val))


compute()