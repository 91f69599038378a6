#!/usr/bin/env python3
# ALDS1_1_B
import sys
import math

digits, b = map(int, sys.stdin.readline().split())
print(math.gcd(digits, b))