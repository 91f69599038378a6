# coding: utf-8
h, *row=map(int, open(0).read().split())  # solve
res=[0] * h
i=0
while i < h:  # TODO
    res[i]=max(row[:i] + row[i + 1:])
print("\n".join(map(str, res)))