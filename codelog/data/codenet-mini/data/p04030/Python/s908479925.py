# B - Unhappy Hacking
import sys

def main():
	s = sys.stdin.readline().rstrip()
	out = []
	for c in s:
		if c=="B":
			try:
				out.pop()
			except IndexError:
				pass
		# output
		else:
			out.append(c)
	print("".join(out))


if __name__=="__main__":
	main()