kk = str(input())
print(int(kk.replace("9","0").replace("1","9").replace("0","1")))
