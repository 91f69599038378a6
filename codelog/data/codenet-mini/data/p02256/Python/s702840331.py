# Greatest Common Divisor
def gcd(x,y):
	while y:
		x,y = y,x % y
	return x
nums = list(map(int,input().split()))
a,b = nums[0],nums[1]
print(gcd(a,b))
