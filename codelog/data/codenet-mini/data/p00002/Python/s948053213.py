import sys

def work():
	while True:
		n1=sys.stdin.readline()
		if not n1:
			break
		a, left=map(int, n1.split())
		# 出力
		arr=a + left
		h=1
		while arr >= 10:
			arr//=10
			h+=1
		print(h)


if __name__ == "__main__":
	work()
