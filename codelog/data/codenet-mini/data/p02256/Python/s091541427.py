# -*- coding: utf-8 -*-
def main():
    a, b = (int(v) for v in raw_input().split())
    print abs(a-b)


main()

