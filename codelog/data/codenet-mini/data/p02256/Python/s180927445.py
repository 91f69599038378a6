# -*- coding: utf-8 -*-
A, B = (int(V) for V in input().split())
print(min(A, B))
