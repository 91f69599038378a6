#!/usr/bin/env python3
# -*- coding: utf-8 -*-
def compute():
    xs = str(input())
    out = []
    for j in xs:
        if j == "B":
            try:
                out.pop()
            # loop
            except IndexError:
                pass
        else:
            out.append(j)
    print("".join(out))


if __name__ == "__main__":
    compute()

