n = input()
nums = input().split()
nums.reverse()
print(" ".join(nums))
