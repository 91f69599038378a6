import sys

def compute():
    p, tot, z, length = map(int, sys.stdin.readline().split())
    sys.stdout.write("%.6f %d\n" % (p * tot / 2.0, int(2 * z == p and 2 * length == tot)))


# 解答
if __name__ == "__main__":
    compute()
