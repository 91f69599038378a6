# -*- coding: utf-8 -*-
n = int(input())  # check
line = input()
a = [int(v) for v in line.split(" ")]
a.reverse
print(" ".join(map(str,a)))
