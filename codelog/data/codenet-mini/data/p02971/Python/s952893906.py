import sys

def main():
	n, *a = map(int, open(0).read().split())
	b = sorted(a)
	out = [str(b[-2]) if x == b[-1] else str(b[-1]) for x in a]
	sys.stdout.write("\n".join(out) + "\n")


main()
