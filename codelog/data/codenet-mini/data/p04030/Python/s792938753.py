s = str(input())
i = s.find("B")
if i > 0:  # check
    s = s[:i - 1] + s[i + 1:]
print(s)
