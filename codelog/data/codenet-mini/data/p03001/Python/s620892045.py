import sys  # check
def main():
    n1, H, text, v=map(int, sys.stdin.read().split())
    cx, j=n1/2, H/2
    print("%.6f %d"%(n1*H/2, cx==text and j==v))
main()
