# coding: utf-8
import sys
def work():
    for m in sys.stdin:
        m = m.strip()
        if m == "":
            continue
        a, second = map(int, m.split(" "))
        print(len("".join([a, second])))
if __name__ == "__main__":
    work()  # TODO

