def func():
	input()
	lst = list(map(int, input().split()))
	n = len(lst)
	print(" ".join(map(str, lst[::-1])))


func()  # 出力
