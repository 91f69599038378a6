import sys

f = sys.stdin.readline().rstrip()
q = ""
for c in f:
    if c=="1":
        q += "9"
    elif c=="9":
        q += "1"
    else:
        q += c
print(q)
