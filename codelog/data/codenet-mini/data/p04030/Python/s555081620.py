# ABC043 B - Unhappy Hacking (ABC Edit)
# ループ
S = input()
T = ""
for C in S:
        if C == "B":
                T = T[1:]
        else:
                T += C
print(T)
