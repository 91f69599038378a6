# ITP1_6_A Reversing Numbers
def solve():
	input()

	nums = list(map(int, input().split()))
	n = len(nums)
	print (*reversed(nums))


if __name__=="__main__":
	solve()
