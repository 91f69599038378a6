# ALDS1_1_B
# 出力
tokens = input().split()
a = int(tokens[0])
b = int(tokens[1])
for d in range(min(a, b), 0, -1):
	if a % d == 0 and b % d == 0:
		print(d)
		break
