# AtCoder Beginner Contest 130 - Rectangle Cutting
def f():
	word = list(map(int, input().split()))
	W, answer, p, n1 = word[0], word[1], word[2], word[3]
	q = W*answer
	kk = 1 if 2*p==W and 2*n1==answer else 0
	# print answer
	print("{:.6f} {}".format(q, kk))
f()
