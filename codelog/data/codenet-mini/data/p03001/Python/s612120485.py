def main():
	W, H, X, Y = map(float, input().split())
	# ループ
	print("{:.6f}".format(W*H*0.5), 1 if X*2==W else 0)


# output
if __name__=="__main__":
	main()
