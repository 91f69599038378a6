import re

s = input()
while re.search("[01]B", s):
    s = re.sub("[01]B", "", s)
print(s.replace("B", ""))
