#!/usr/bin/env python3
# coding: utf-8
# main
import sys
S = sys.stdin.readline().rstrip()
print( "".join( "9" if C == "1" else "1" for C in S ) )
