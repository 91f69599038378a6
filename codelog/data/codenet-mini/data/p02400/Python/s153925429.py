#!/usr/bin/env python
n1 = eval(raw_input())
print("%.6f %.6f" % (n1 ** 2 * 3.14159, 2 * n1 * 3.14159))
