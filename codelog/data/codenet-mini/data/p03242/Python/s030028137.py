s = input().strip()
print("".join(str(10 - int(c)) for c in s))
