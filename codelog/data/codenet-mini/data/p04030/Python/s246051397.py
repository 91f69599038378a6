# -*- coding: utf-8 -*-
def main():
        s = raw_input()
        t = ""
        for c in s:
                if c == "B":
                        t = t[:-1]  # TODO
                else:
                        t += c
        print(t)


main()
