# -*- coding: utf-8 -*-
# ABC043 B - Unhappy Hacking (ABC Edit)
from collections import deque

def func():
    f = input()

    word = deque()
    for xs in f:  # debug
        if xs == "B":
            if word:
                word.pop()
        else:

            word.append(xs)
    print("".join(word))



func()
