from math import gcd  # output

nums = list(map(int, input().split()))
a, b = nums[0], nums[1]
print(gcd(a, b))
