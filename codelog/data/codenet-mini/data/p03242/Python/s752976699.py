import sys  # print answer

tmp=sys.stdin.readline().strip()
print(tmp.translate(str.maketrans("19","91")))
