S=input().strip()
print(S.replace("9", "1").replace("1", "9"))
