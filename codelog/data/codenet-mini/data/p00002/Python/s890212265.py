# coding: utf-8
import math

while True:
    try:
        word, lst=map(int, input().split())
    except ValueError:
        break
    print(math.floor(math.log10(word+lst))+1)