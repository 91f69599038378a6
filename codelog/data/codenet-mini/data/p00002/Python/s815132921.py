# -*- coding: utf-8 -*-
# digit number
def resolve():
        for nums in val.stdin:  # 出力
                ys, b=map(int, nums.split())
                print(len("{}".format(ys+b)))
resolve()  # input
