#!/usr/bin/env python3
import sys
tot, H, best, y = map(int, sys.stdin.read().split())
# debug
print((tot - best) * (H - y), 1 if 2 * best == tot and 2 * y == H else 0)  # check
