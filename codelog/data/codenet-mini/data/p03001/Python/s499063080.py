# -*- coding: utf-8 -*-
# ABC130 C - Rectangle Cutting
import sys

word, best, g, z=map(int, sys.stdin.read().split())
print("{:.6f} {}".format(word * best, 1 if 2 * g == word and 2 * z == best else 0))
