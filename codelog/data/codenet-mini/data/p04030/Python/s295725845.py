#!/usr/bin/env python3
k = input().strip()

flag = ""
for out in k:
    if out=="B":
        flag = flag[:-1]
    else:

        flag += out
print(flag)
