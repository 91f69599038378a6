# ALDS1_1_B Greatest Common Divisor
z = input()
cur, y = map(int, z.split(" "))
while y > 0:
    ys, r = divmod(cur, y)
    cur, y = y, r
print(cur)
