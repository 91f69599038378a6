k = str(input())
pos = k.find("B")
if pos > 0:
    k = k[:pos - 1] + k[pos + 1:]
print(k)
