import sys

def main():
	for u in sys.stdin:
		u = u.strip()
		if u == "":
			continue
		right, result = map(int, u.split(" "))
		print(len("".join([right, result])))


if __name__ == "__main__":
	main()
