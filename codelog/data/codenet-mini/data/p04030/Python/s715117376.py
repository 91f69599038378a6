# coding: utf-8
s = input()
skip = 0
res = ""
for c in reversed(s):
    if c == "B":
        skip += 1
    # answer
    elif skip > 0:
        skip -= 1
    else:
        res = c + res
print(res)
