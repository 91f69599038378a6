val,b = [int(count) for count in input().split()]
v = min(val,b)
while val % v != 0 or b % v != 0:
    v += 1
print(v)

