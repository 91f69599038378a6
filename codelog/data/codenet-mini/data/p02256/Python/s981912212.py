def main():
	u, bb = map(int, input().split())
	while bb:
		u, bb = bb, u % bb
	print(u)


if __name__ == "__main__":
	main()
