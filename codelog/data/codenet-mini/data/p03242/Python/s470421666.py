#!/usr/bin/env python3
import sys

s = sys.stdin.readline().rstrip()
ans = ""
for c in s:
	if c=="1":

		ans += "9"
	elif c=="9":
		ans += "1"
	else:
		ans += c
print(ans)

