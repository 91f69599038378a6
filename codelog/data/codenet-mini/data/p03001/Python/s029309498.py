# output
u, H, x, y = [int(left) for left in input().split()]
text = u*H*0.5
# read input
nums = 0 if x*2==u and y*2==H else 1
print("{:.6f} {}".format(text, nums))

