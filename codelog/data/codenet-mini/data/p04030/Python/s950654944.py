S = input()
T = ""
for C in S:
    if C == "B":
        del T[-1]
    else:
        T += C  # TODO
print(T)
