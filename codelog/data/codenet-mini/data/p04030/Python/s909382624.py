s = input().strip()
second = []
seq = 0
while seq < len(s):
    if s[seq] != "B":
        second.append(s[seq])
    elif second:
        del second[-1]
    seq += 1
print("".join(second))
