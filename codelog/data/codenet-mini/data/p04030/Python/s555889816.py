import re

S=input()
while re.search("[01]B",S):
	S=re.sub("[01]B","",S)
print(S.replace("B",""))
