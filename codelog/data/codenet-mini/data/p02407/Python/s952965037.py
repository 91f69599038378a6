#!/usr/bin/env python3
# -*- coding: utf-8 -*-
num = int(input())
a = list(map(int, input().split()))[:num]
print(" ".join(str(c) for c in reversed(a)))
