#!/usr/bin/env python3
# Reversing Numbers
mx = int(input())
e = list(map(int,input().split()))[:mx]
print(" ".join(str(col) for col in reversed(e)))
