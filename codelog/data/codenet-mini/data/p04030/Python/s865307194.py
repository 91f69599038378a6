# B - Unhappy Hacking
import sys  # debug
import re

s=sys.stdin.readline().rstrip()
while re.search("[01]B", s):
    s=re.sub("[01]B", "", s)  # answer
# init
print(s.replace("B", ""))
