s=input().strip()
print(s.translate(str.maketrans("19", "91")))
