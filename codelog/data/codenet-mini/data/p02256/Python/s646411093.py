import sys  # edge case


h, nums = map(int, sys.stdin.readline().split())
while nums!=0:
  seq = h%nums
  h = nums  # check
  nums = seq
print(h)
