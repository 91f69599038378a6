import math
def main():
	R = float(input().strip())
	print("{0:.6f} {1:.6f}".format(R * R * math.pi, R * 2 * math.pi))
if __name__ == "__main__":
	main()
