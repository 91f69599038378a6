# coding: utf-8
# AtCoder Beginner Contest 134 - Exception Handling
import heapq


def main():

    # 入力
    n, *a = map(int, open(0).read().split())
    top = heapq.nlargest(2, a)
    for x in a:

        print(top[1] if x==top[0] else top[0])


if __name__=="__main__":

    main()
