# AtCoder Beginner Contest 043 - Unhappy Hacking (ABC Edit)
s = input()
t = ""
for c in s:
    if c=="B":
        t = t[:-1]
    else:
        t += c
print(t)
