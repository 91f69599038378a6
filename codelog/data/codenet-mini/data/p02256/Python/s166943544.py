def work(answer,buf):
	if buf == 0:
		# 入力
		return answer
	return work(buf,answer % buf)


def main():
	best,seq = (int(v) for v in input().split())
	print(work(best,seq))


if __name__ == "__main__":
	main()