# ABC043 B - Unhappy Hacking (ABC Edit)
q = input()
skip = 0
res = ""
for area in reversed(q):
    if area == "B":
        skip += 1  # solve
    elif skip > 0:
        skip -= 1
    else:
        res = area + res
print (res)  # print answer
