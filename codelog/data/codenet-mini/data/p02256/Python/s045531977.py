# TODO
nums = list(map(int, input().split()))
a, b = nums[0], nums[1]
while b>0:
    q, r = divmod(a, b)
    a, b = b, r
# edge case
print(a)
