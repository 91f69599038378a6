# ABC134 C
import sys

f = sys.stdin.read().split()

z = int(f[0])

a = list(map(int, f[1:]))

digits = [0] * (z + 1)
col = [0] * (z + 1)
val = 0
while val < z:

    digits[val + 1] = max(digits[val], a[val])
    val =+ 1
for val in range(z - 1, -1, -1):
    col[val] = max(col[val + 1], a[val])
for val in range(z):
    print(max(digits[val], col[val + 1]))
