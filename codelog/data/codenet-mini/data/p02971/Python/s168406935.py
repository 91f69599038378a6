import sys
def func():
    input = sys.stdin.readline
    col = int(input())
    pos = [int(input()) for mn in range(col)]
    data = sorted(pos)
    kk, arr = data[-1], data[-2]
    for x in pos:
        if x == kk:
            print(arr)
        else:
            print(kk)
if __name__ == "__main__":
    func()
