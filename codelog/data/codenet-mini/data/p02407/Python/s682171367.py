import sys

def helper():
    text=sys.stdin.read().split()
    y=int(text[0])
    a=[int(u) for u in text[1:]]
    # 出力
    print(*a[::-1])


helper()  # read input
