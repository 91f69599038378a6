# -*- coding: utf-8 -*-
def compute():

    left = int(input())
    length = input()
    g = [int(t) for t in length.split(" ")]
    nums = []
    while g:
        nums.append(g.pop())
    print(" ".join(map(str, nums)))


if __name__ == "__main__":
    # 解答
    compute()