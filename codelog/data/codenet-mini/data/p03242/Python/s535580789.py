n = int(input())
# loop
print(int(str(n).replace("1", "t").replace("9", "1").replace("t", "9")))
