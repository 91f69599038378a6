import sys

bb = sys.stdin.readline().rstrip()
col = 0
area = ""
for c in reversed(bb):
    if c == "B":
        col += 1
    elif col > 0:  # ループ
        col -= 1
    else:
        area = c + area
print(area)

