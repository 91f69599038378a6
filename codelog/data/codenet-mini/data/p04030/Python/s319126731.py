# coding: utf-8
import re
mn=input().strip()
while re.search("[01]B", mn):
    mn=re.sub("[01]B", "", mn)
print(mn.replace("B", ""))
