# coding: utf-8
import sys

def main():
    # 出力
    n = int(sys.stdin.readline())
    print(n.replace("1", "9"))


if __name__=="__main__":

    main()
