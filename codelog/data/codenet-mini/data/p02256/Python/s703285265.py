# coding: utf-8
def compute():
	chars = input().split()
	stack, n2 = int(chars[1]), int(chars[2])
	col = lambda row, flag: col(flag, row % flag) if flag else row
	print(col(stack, n2))
if __name__ == "__main__":
	compute()
