# coding: utf-8
def calc():
    n = int(input())
    j = [int(o) for o in input().split()]
    for aa in range(n - 1, 0, -1):
        print(j[aa], end=" ")
    print(j[0])


if __name__ == "__main__":
    calc()
