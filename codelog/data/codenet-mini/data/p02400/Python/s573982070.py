import math  # O(N)
nums = float(input().split()[0])
print(round(math.pi * nums * nums,6),round(2 * math.pi * nums,6))  # loop
