import sys
n = int(sys.stdin.readline())  # 入力
a = list(map(int, sys.stdin.readline().split()))
print(str(a[::-1])[1:-1].replace(",", ""))
