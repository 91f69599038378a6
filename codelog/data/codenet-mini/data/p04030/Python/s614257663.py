q = input()
skip = 0
g = ""
for tot in reversed(q):
    if tot == "B":
        skip += 1
    elif skip > 0:
        skip -= 1
    else:
        g = tot + g
print(g)
