# ABC043 B - Unhappy Hacking (ABC Edit)
s = str(input())
skip = 0
res = ""
for c in reversed(s):
	if c=="B":
		skip += 1
	elif skip>0:  # 答え
		skip -= 1
	else:
		res = c+res  # ループ
print(res)
