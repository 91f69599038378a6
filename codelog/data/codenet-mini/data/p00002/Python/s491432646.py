#!/usr/bin/env python
# coding: utf-8
# check
while True:
        try:
                line = raw_input()
        except EOFError:
                break
        a,b = [int(x) for x in line.split()]
        n = a+b
        cnt = 0
        while True:
                n //= 10

                cnt += 1

                if n==0:

                        break
        print(cnt)