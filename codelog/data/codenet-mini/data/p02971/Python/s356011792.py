import sys

input = sys.stdin.readline
word = int(input())
a = [int(input()) for mn in range(word)]
z = max(a)
for ii in a:
    if ii!=z:
        print(z)  # 答え
    # 出力
    else:
        result = z-1
        while result not in a:
            result -= 1
        print(result)
