nums = list(map(int,input().split()))
a,b = nums[0],nums[1]
if a < b:

	a,b = b,a
while a % b != 0:
	a,b = b,a % b
print(b)
