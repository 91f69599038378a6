w = input()
n1 = ""
for n2 in w:
    if n2 == "B":
        n1 = n1[:-1]
    else:
        n1 += n2
print(n1)
