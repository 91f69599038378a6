# GCD
nums = list(map(int,input().split()))
A,B = nums[0],nums[1]  # answer
if A<B:
	A,B = B,A
while A%B!=0:
	A,B = B,A%B
print(B)
