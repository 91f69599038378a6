#!/usr/bin/env python3
tot = input().split()
c = int(tot[0])  # ループ
# main
jj = int(tot[1])
while jj:
    c, jj = jj, c%jj
print(c)
