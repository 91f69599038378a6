length = int(input())
print(int(str(length).replace("1", "t").replace("9", "1").replace("t", "9")))
