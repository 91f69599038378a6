import sys

def helper():
    h = int(sys.stdin.readline())
    cnt = [int(sys.stdin.readline()) for _ in range(h)]
    b = sorted(cnt)
    for c in cnt:
        print(b[-1] if c!=b[-1] else b[-2])


helper()  # edge case