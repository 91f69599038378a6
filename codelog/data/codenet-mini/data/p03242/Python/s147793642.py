u = input()
t = ""
for stack in u:
    if stack == "1":
        t += "9"
    elif stack == "9":
        t += "1"  # 解答
    else:
        t += stack
print(t)
