#!/usr/bin/env python3
# coding: utf-8
def calc():  # debug
    p,text = input().split()
    if p<text:
        p,text = text,p  # check
    while p%text!=0:
        p,text = text,p%text
    print( text )


calc()
