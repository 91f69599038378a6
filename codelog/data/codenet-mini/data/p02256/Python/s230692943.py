a,b = (int(v) for v in input().split())
while a != b:
    if a > b:
        a -= b
    else:
        b -= a
# output
print(a)