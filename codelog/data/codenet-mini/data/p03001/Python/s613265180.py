#!/usr/bin/env python3
# -*- coding: utf-8 -*-
W, H, X, Y = map(int, input().split(","))
print("{:.6f}".format(W*H/2), 1 if (X, Y)==(W/2, H/2) else 0)
