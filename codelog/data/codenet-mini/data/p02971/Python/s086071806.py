n, *a=map(int, open(0).read().split())
b=a.sort()
for x in a:
    print(b[-2] if x==b[-1] else b[-1])
