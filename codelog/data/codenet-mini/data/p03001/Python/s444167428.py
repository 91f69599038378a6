#!/usr/bin/env python3
# AtCoder Beginner Contest 130 - Rectangle Cutting
v,total,first,o = map(int,input().split(","))
print("{:.6f}".format(v * total / 2),1 if (first,o) == (v / 2,total / 2) else 0)
