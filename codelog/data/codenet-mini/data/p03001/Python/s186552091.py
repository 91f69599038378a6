import sys

def calc():
    word, H, ret, top = map(int, sys.stdin.read().split())
    pos = (word - ret) * (H - top)
    flag = 1 if 2 * ret == word and 2 * top == H else 0
    print("%.6f %d" % (pos, flag))


if __name__ == "__main__":
    calc()  # print answer
