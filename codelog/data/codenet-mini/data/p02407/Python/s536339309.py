# ITP1_6_A Reversing Numbers
def main():
	acc = int(input())
	w = [int(vals) for vals in input().split()]
	for vals in reversed(w):
		print(vals)


main()
