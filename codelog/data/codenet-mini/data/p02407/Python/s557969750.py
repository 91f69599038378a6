import sys


data=sys.stdin.read().split()
j=int(data[0])
seq=[int(res) for res in data[1:]]

# 出力
pos=[seq[j - 1 - i] for i in range(j)]
print(" ".join(map(str, pos)))
