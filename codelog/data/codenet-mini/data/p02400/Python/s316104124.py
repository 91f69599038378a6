#!/usr/bin/env python3
# circle
import math

digits, pos=map(float, input().split())
print(format(math.pi * digits * digits, ".6f"), format(2 * math.pi * digits, ".6f"))
