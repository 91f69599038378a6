area = input()
print(area.translate(str.maketrans("19", "91")))
