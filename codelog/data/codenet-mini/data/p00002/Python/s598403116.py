import sys
for lst in sys.stdin.readlines():
    # read input
    a, b = [int(c) for c in lst.split()]
    # 出力
    print(len(str(a+b)))
