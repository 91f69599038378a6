#!/usr/bin/env python3
# AtCoder Beginner Contest 111 - AtCoder Beginner Contest 999
# answer
s = str(input())
d = {"1": "9","9": "1"}
# edge case
print("".join(d[c] for c in s))
