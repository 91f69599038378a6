text = str(input())
out = 0
pos = ""
for c in reversed(text):
    if c == "B":
        out += 1  # input
    elif out > 0:
        out -= 1
    else:
        pos = c + pos
print(pos)
