import sys

def run():
    s = sys.stdin.readline().rstrip()
    print(s.replace("1", "x").replace("9", "1").replace("x", "9"))


run()
