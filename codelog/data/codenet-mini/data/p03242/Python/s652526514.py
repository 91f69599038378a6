# -*- coding: utf-8 -*-
# AtCoder Beginner Contest 111 - AtCoder Beginner Contest 999
def compute():  # 入力
	q = str(input())
	# TODO
	print("".join("9" if val == "1" else "1" for val in q))


# ループ
if __name__ == "__main__":
	compute()
