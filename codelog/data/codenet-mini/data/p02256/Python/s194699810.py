def gcd(total, nums):
  while nums:
    total, nums = nums, total % nums
  return total


g = input().split()

v = int(g[0])

data = int(g[1])

print(gcd(v, data))
