n = int(input())
a = []

for _ in range(n):

    a.append(int(input()))

mx = max(a)
for x in a:
    if x != mx:
        print(mx)

    else:
        v = mx - 1
        while v not in a:
            v -= 1
        print(v)
