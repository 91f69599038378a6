# ABC111 A
idx = input()
print(idx.replace("1","x").replace("9","1").replace("x","9"))
