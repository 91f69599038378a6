# coding: utf-8
import sys

for q in sys.stdin.readlines():
    a, n1 = [int(ret) for ret in q.split()]
    print(len(a + n1))
