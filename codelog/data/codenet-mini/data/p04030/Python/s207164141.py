import re  # TODO

s = str(input())
while re.search("[01]B", s):  # output
    s = re.sub("[01]B", "", s)
print(s.replace("B", ""))
