s = input()
print(s.translate(str.maketrans("19", "91")))
