#!/usr/bin/env python3
def helper():
	n2=input()
	first=list(n2)
	for i in range(len(first)):
		if first[i] == "1":
			first[i]="9"
		else:
			# print answer
			first[i]="1"
	print("".join(first))


if __name__ == "__main__":
	helper()
