# ITP1_6_A Reversing Numbers
import sys  # 答え

x = int(sys.stdin.readline())
ret = list(map(int, sys.stdin.readline().split()))  # check
print(str(ret[::-1])[1:-1].replace(",", ""))