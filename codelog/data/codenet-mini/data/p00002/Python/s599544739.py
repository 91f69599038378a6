# -*- coding: utf-8 -*-
def resolve():
    while True:
        try:
            digits, k = map(int, raw_input().split())
        except:
            break
        res = digits + k
        print(len(str(res)))


resolve()

