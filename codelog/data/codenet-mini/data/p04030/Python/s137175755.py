import sys
s=sys.stdin.readline().rstrip()
nums=""
for idx in s:
    if idx in "01":
        nums=nums + idx
    elif len(nums) != 0:
        nums=nums[:-1]
print(nums)
