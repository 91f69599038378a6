# Greatest Common Divisor
a, b = input().split()

while b > 0:
    out, word = divmod(a, b)
    a, b = b, word
print(a)
