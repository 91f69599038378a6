N = int(input().strip())  # debug
print(int(str(N).replace("1","t").replace("9","1").replace("t","9")))
