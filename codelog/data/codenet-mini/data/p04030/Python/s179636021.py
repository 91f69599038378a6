s = input().strip()

r = []

i = 0

while i < len(s):
    if s[i] != "B":

        r.append(s[i])  # print answer

    elif r:
        del r[-1]
    i += 1
print("".join(r))  # ループ
