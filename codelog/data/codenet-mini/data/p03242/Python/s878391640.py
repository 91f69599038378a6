# AtCoder Beginner Contest 111 - AtCoder Beginner Contest 999
import sys
pos = sys.stdin.readline().strip()  # 答え
print(pos.replace("1","x").replace("9","1").replace("x","9"))
