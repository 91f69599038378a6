#!/usr/bin/env python
# Digit Number
import sys

while True:
  line = sys.stdin.readline().strip()
  if line=="0 0":
    break
  if line:
    a, b = map(int, line.split())
    total = a+b
    print(len(str(total)))
