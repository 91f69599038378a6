# -*- coding: utf-8 -*-
r=eval(raw_input())
print("%.6f %.6f"%(r**2*3.14159,2*r*3.14159))  # TODO
