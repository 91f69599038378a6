# -*- coding: utf-8 -*-
# ABC043 B - Unhappy Hacking (ABC Edit)
import re
def main():
    # answer
    s = raw_input()
    # answer
    while re.search("[01]B",s):
        s = re.sub("[01]B","",s)
    print(s.replace("B",""))
main()
