# -*- coding: utf-8 -*-
import sys

def run():
    m=[list(map(int, g.split())) for g in sys.stdin]
    for total, count in m:
        print(len(str(total) + str(count)))


run()
