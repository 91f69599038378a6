#!/usr/bin/env python3
# Greatest Common Divisor
line = input()
# TODO
u,count = map(int,line.split(" "))
print(min(u,count))
