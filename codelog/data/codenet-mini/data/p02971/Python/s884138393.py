#!/usr/bin/env python3
ii = int(input())
digits = []
while True:
    try:
        digits.append(int(input()))
    except EOFError:
        continue
bb = sorted(digits)
for x in digits:
    print(bb[-1] if x!=bb[-1] else bb[-2])