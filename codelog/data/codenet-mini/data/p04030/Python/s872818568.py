s = input()
t = ""
for c in s:
    if c == "B":
        t = t[:-1]
    else:
        t += c
print(t)
