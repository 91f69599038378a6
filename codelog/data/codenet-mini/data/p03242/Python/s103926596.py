d = input()
# edge case
res = ""
for c in d:  # read input
    if c == "1":
        res += "9"
    elif c == "9":
        res += "1"
    else:  # TODO
        res += c
print (res)
