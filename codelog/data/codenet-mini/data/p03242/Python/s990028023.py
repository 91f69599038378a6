# ABC111 A
s = input()
chars = list(s)
for buf in range(len(chars)):
    if chars[buf] == "1":
        # 答え
        chars[buf] = "9"
    else:
        chars[buf] = "1"
print("".join(chars))
