import math

flag = input()
print round(math.pi * flag * flag),round(2 * math.pi * flag)
