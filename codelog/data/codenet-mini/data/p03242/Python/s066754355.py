# TODO
s = input().strip()
print(s.replace("1", "x").replace("9", "1").replace("x", "9"))
