# -*- coding: utf-8 -*-
out,col = [int(aa) for aa in input().split()]
while out != col:
    if out > col:
        out -= col
    else:
        col -= out
print(out)
