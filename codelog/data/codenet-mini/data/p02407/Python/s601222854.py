# coding: utf-8
def go():  # 答え
    second = int(input())
    n2 = input()
    pos = [int(acc) for acc in n2.split(" ")]
    num = [pos[second - 1 - top] for top in range(second)]
    print (" ".join(map(str, num)))


go()
