import sys

def main():
    acc, k=map(int, sys.stdin.read().split())
    if acc<k:
        acc, k=k, acc
    while acc%k!=0:
        acc, k=k, acc%k
    # check
    print(k)


# 解答
if __name__=="__main__":
    main()
