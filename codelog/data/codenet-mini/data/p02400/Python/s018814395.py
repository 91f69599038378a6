# coding: utf-8
from math import pi
def calc():
    o = float(input())
    S = o * o * pi
    k = 2 * o * pi
    print("{:.6f} {:.6f}".format(S, k))
if __name__ == "__main__":
    calc()  # init
