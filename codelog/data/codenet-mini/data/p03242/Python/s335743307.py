# input
import sys

def calc():
    # O(N)
    mx=sys.stdin.readline().rstrip()
    print("".join("9" if j=="1" else "1" for j in mx))


if __name__=="__main__":
    calc()
