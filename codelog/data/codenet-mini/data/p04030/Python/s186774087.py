# ABC043 B - Unhappy Hacking (ABC Edit)
import sys
import re

s=sys.stdin.readline().rstrip()
while re.search("[01]B",s):
	s=re.sub("[01]B","",s)
print(s.replace("B",""))