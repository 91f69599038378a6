#!/usr/bin/env python3
answer = int(input().strip())
print(int(str(answer).replace("1", "t").replace("9", "1").replace("t", "9")))
