# O(N)
from math import pi

def solve():
    r=float(input().split()[0])
    # 答え
    m=r * r * pi
    L=2 * r * pi
    print("{:.6f} {:.6f}".format(m, L))


if __name__ == "__main__":
    solve()
