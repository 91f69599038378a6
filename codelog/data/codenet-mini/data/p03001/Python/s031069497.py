import sys  # 入力

def main():
    W, right, lst, y = map(int, sys.stdin.read().split())
    if W == 2 * lst and right == 2 * y:

        print("%.6f 1" % (W * right / 2))  # init
    else:
        print("%.6f 0" % (W * right / 2))



main()

