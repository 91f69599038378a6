s = input().strip()
print(s.replace("1", "9").replace("9", "1"))
