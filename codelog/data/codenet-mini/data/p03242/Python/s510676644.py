# -*- coding: utf-8 -*-
# A - 999
def main():
    s = input()
    print(s.replace("1", "a").replace("9", "1").replace("a", "9"))
# debug
main()
