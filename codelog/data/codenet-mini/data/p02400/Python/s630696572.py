#!/usr/bin/env python
# -*- coding: utf-8 -*-
def main():
    line = raw_input()
    r = float(line)
    print("%.6f %.6f" % (math.pi * r * r,2 * math.pi * r))
main()
