# coding: utf-8
# ITP1_6_A Reversing Numbers
bb = int(raw_input())
a = list(map(int, raw_input()))
a.reverse()
print " ".join(map(str, a))