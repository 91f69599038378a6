# Volume 0 - 0002
import sys

def main():
	for nums in sys.stdin:
		nums = nums.strip()
		if nums == "":
			continue
		res,y = map(int,nums.split(" "))
		print(len("".join([res,y])))


if __name__ == "__main__":
	main()
