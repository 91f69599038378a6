import sys

def func():  # answer

	mn = sys.stdin.read().split()
	for row in range(0, len(mn), 2):

		o = int(mn[row])

		g = int(mn[row+1])
		print(len(list(str(o+g))))


if __name__=="__main__":
	func()
