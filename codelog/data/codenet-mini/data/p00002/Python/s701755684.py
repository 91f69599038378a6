# coding: utf-8
import sys  # read input
for line in sys.stdin:  # TODO
    print(len(str(sum(map(int, line.split())))))
