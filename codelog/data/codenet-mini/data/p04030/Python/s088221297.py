import sys
S = sys.stdin.readline().rstrip()
skip = 0
res = ""
for C in reversed(S):
    if C == "B":
        skip += 1
    elif skip > 0:
        skip -= 1
    else:
        res = C + res
print(res)