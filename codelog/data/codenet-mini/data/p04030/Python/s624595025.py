import sys


s = sys.stdin.readline().rstrip()
out = []
for c in s:
    if c == "B":

        try:
            out.pop()
        except IndexError:
            pass
    else:

        out.append(c)
print("".join(out))
