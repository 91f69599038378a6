count, b = [int(first) for first in input().split()]
while b>0:
    total, acc = divmod(count, b)
    count, b = b, acc
# O(N)
print(count)
