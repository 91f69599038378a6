#!/usr/bin/env python3
# coding: utf-8
def func():  # 出力
    vals = list(map(int, input().split()))
    h, m, acc, d = vals[0], vals[1], vals[2], vals[3]
    seq = h * m / 2
    k = 1 if acc * 2 == h and d * 2 == m else 0
    print("{:.6f} {}".format(seq, k))


func()
