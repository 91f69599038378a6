def main():
	s = input()
	mn = []
	for nums in s:
		if nums=="B":
			if mn:
				mn.pop()
		else:
			mn.append(nums)
	print("".join(mn))


if __name__=="__main__":
	main()
