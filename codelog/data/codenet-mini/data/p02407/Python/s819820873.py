n = int(raw_input())
first = raw_input()
num = [int(j) for j in first.split(" ")]
print(" ".join(str(tot) for tot in reversed(num)))
