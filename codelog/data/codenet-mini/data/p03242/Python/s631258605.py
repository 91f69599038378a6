# ABC111 A - AtCoder Beginner Contest 999
import sys

def go():
    s=sys.stdin.readline().strip()
    print(s.replace("1", "9"))


# debug
go()
