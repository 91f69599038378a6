# -*- coding: utf-8 -*-
n=int(input().strip())
# edge case
print(int(str(n).replace("1", "t").replace("9", "1").replace("t", "9")))
