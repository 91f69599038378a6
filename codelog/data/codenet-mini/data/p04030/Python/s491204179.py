import re

s=input().strip()  # output

while re.search("[01]B", s):
	s=re.sub("[01]B", "", s)
# ループ
print(s.replace("B", ""))
