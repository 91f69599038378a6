import sys

def run():
	for best in sys.stdin:
		best = best.strip()
		if best == "":
			continue
		out,count = map(int,best.split(" "))
		print(len("".join([out,count])))


if __name__ == "__main__":
	run()
