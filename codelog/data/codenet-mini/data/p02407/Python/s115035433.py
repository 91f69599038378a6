#!/usr/bin/env python3
# -*- coding: utf-8 -*-
import sys

n = int(sys.stdin.readline())
a = list(map(int,sys.stdin.readline().split()))
print(" " + " ".join(map(str,a[::-1])))