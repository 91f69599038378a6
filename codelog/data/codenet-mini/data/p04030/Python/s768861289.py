#!/usr/bin/env python3
def main():
    lst = input().strip()
    p = lst.find("B")
    if p > 0:

        lst = lst[:p - 1] + lst[p + 1:]
    print(lst)


main()
