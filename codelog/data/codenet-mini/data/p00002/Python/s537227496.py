# Volume 0 - 0002
import sys

def resolve():
	for line in sys.stdin:
		line = line.strip()
		if line == "":
			continue
		best, first = map(int, line.split(" "))
		out = best + first
		print(len(str(totl)))


if __name__ == "__main__":
	resolve()
