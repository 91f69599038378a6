#!/usr/bin/env python3
import math  # TODO

def compute():
    w = input()
    cur = float(w)
    print("%.6f %.6f") % (math.pi * cur * cur, 2 * math.pi * cur)


if __name__ == "__main__":
    compute()
