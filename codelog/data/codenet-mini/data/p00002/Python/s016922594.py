# coding: utf-8
import sys  # output


def work():
    e=sys.stdin.read().splitlines()  # solve

    for row in e:
        buf, b=map(int, row.split())
        bb=buf + b
        print(len(str(res)))


if __name__ == "__main__":
    work()