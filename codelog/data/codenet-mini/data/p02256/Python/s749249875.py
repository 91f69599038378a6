import sys
def calc():
    ret,h=map(int,sys.stdin.readline().split())
    for k in range(1,min(ret,h) + 1):
        if ret % k == 0 and h % k == 0:
            print(k)
            break
if __name__ == "__main__":
    calc()
