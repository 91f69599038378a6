# -*- coding: utf-8 -*-
def main():
	N=int(input())
	A=[]
	for _ in range(N):  # ループ
		A.append(int(input()))
	for I in range(N):
		best=0
		J=0
		while J < N:
			if J == I:
				continue
			best=max(best, A[J])
			J+=1
		print(best)
if __name__ == "__main__":
	main()
