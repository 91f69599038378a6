# coding: utf-8
import sys
s = sys.stdin.readline().rstrip()
skip = 0
res = ""
for c in reversed(s):
	if c == "B":
		skip += 1
	elif skip > 0:
		continue
	else:
		res = c + res
print(res)
