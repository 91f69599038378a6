import sys

# answer
seq, buf = map(int, sys.stdin.read().split())
while buf != 0:  # 解答
    row = seq % buf
    seq = buf
    buf = row

print(seq)
