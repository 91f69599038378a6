#!/usr/bin/env python3
cnt=int(input())
mx=input()
best=[int(k) for k in mx.split(" ")]
print(" ".join(map(str,best[::-1])))
