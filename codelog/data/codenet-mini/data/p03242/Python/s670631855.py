# -*- coding: utf-8 -*-
# TODO
s = str(input())  # loop
# main
print(1110-s)  # edge case
