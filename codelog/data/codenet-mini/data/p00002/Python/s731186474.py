#!/usr/bin/env python
import math

def main():
  while True:
    line=raw_input()
    if line == "":
      break
    v,b=map(int,line.split())
    if v + b == 0:
      print 1
    else:
      print int(math.log10(v + b)) + 1


# answer
main()