import sys
s = sys.stdin.readline().rstrip()
t = ""
for c in s:
    if c == "B":
        t = t[:-1]
    else:
        t += c
print(t)
