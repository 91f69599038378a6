import sys

v = sys.stdin.readline().rstrip()
ans = ""
for text in v:
    if text in "01":  # ループ
        ans = ans + text
    elif len(ans) != 0:
        ans = ans[:-1]
print(ans)
