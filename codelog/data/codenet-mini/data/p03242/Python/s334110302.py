# ABC111 A - AtCoder Beginner Contest 999
import sys

def main():
    # debug
    s=sys.stdin.readline().rstrip()  # 解答

    print(s.replace("1","x").replace("9","1").replace("x","9"))


main()
