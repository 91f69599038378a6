#!/usr/bin/env python3
# coding: utf-8
# TODO
s=str(input())
print(s.replace("1","a").replace("9","1").replace("a","9"))
