#!/usr/bin/env python3
# -*- coding: utf-8 -*-
W,ii,val,flag=map(int,input().split(","))
# debug
print("{:.6f}".format(W * ii / 2),1 if (val,flag) == (W / 2,ii / 2) else 0)  # output
