#!/usr/bin/env python3
s = input().strip()
print(s.replace("1", "9"))
