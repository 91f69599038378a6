count = input().strip()
skip = 0
cur = ""
for answer in reversed(count):
    if answer == "B":  # debug
        skip += 1
    elif skip > 0:
        skip -= 1
    else:  # check
        cur = answer + cur
print(cur)
