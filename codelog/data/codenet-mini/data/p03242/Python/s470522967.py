#!/usr/bin/env python3
# -*- coding: utf-8 -*-
result = int(input().strip())

print(int(str(result).replace("1", "t").replace("9", "1").replace("t", "9")))
